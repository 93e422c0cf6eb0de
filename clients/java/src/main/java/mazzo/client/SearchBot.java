package mazzo.client;

import com.google.protobuf.util.Durations;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import mazzo.v1.BotGrpc;
import mazzo.v1.BotOuterClass.ActRequest;
import mazzo.v1.BotOuterClass.ActResponse;
import mazzo.v1.GameServiceGrpc;
import mazzo.v1.GameServiceOuterClass.MoveOutcome;
import mazzo.v1.GameServiceOuterClass.SideOutcome;
import mazzo.v1.GameServiceOuterClass.SimulateRequest;
import mazzo.v1.GameServiceOuterClass.SimulateResponse;

/**
 * The search starter bot: for each Act it asks a GameService to Simulate every legal move from its
 * own view (hidden cards sampled, random playouts: a perfect-information Monte Carlo decision in one
 * call) and plays the move best for its side. On any error or timeout it plays a random safe move,
 * as the starter bot does.
 */
public final class SearchBot extends BotGrpc.BotImplBase {
  private static final String USAGE =
      "usage: run-search-bot [--host 127.0.0.1] [--port 50062] [--service 127.0.0.1:50051]"
          + " [--determinizations 32] [--playouts 4]";

  private final GameServiceGrpc.GameServiceBlockingStub service;
  /** Determinizations and playouts, from the flags. */
  private final SimulateRequest template;

  SearchBot(GameServiceGrpc.GameServiceBlockingStub service, SimulateRequest template) {
    this.service = service;
    this.template = template;
  }

  @Override
  public void act(ActRequest request, StreamObserver<ActResponse> responses) {
    List<Integer> safe = Moves.candidates(request.getLegalMovesList());
    if (safe.isEmpty()) {
      responses.onError(Status.INVALID_ARGUMENT.withDescription("no legal move").asRuntimeException());
      return;
    }
    int index;
    try {
      index = search(request);
    } catch (RuntimeException e) {
      System.err.println("run-search-bot: seat " + request.getSeat() + ": search failed: " + e);
      index = -1;
    }
    if (index < 0) {
      index = safe.get(ThreadLocalRandom.current().nextInt(safe.size()));
    }
    responses.onNext(ActResponse.newBuilder().setIndex(index).build());
    responses.onCompleted();
  }

  /**
   * The index of the legal move, never a Maraffa claim (-1 if there is none), with the best mean
   * score change for the deciding side minus the mean of the other sides' mean changes. Simulate
   * gets half the time left, at most 1 s.
   */
  int search(ActRequest request) {
    long millis = request.hasTimeLeft() ? Durations.toMillis(request.getTimeLeft()) / 2 : 1000;
    long seed = ThreadLocalRandom.current().nextLong();
    SimulateRequest simulate = template.toBuilder().setView(request.getView()).setSeed(seed).build();
    SimulateResponse response =
        service.withDeadlineAfter(Math.min(millis, 1000), TimeUnit.MILLISECONDS).simulate(simulate);
    int side = response.getSide();
    if (response.getOutcomesCount() != request.getLegalMovesCount()) {
      throw new IllegalStateException(response.getOutcomesCount() + " outcomes for the legal moves");
    }
    int best = -1;
    double bestValue = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < response.getOutcomesCount(); i++) {
      MoveOutcome outcome = response.getOutcomes(i);
      if (!outcome.getMove().equals(request.getLegalMoves(i)) || side >= outcome.getSidesCount()) {
        throw new IllegalStateException("outcome " + i + ": not legal move " + i + ", or no side " + side);
      } else if (Moves.isClaim(request.getLegalMoves(i))) {
        continue; // its score change says nothing of the game it wins or loses
      }
      double all = outcome.getSidesList().stream().mapToDouble(SideOutcome::getMeanScoreChange).sum();
      double own = outcome.getSides(side).getMeanScoreChange();
      double value = own - (all - own) / Math.max(1, outcome.getSidesCount() - 1);
      if (value > bestValue) {
        best = i;
        bestValue = value;
      }
    }
    return best;
  }

  public static void main(String[] args) throws Exception {
    Cli cli = Cli.parseOrExit(args, Set.of("host", "port", "service", "determinizations", "playouts"), USAGE);
    String target = cli.get("service", "127.0.0.1:50051");
    SimulateRequest template =
        SimulateRequest.newBuilder()
            .setDeterminizations(cli.getInt("determinizations", 32, USAGE))
            .setPlayouts(cli.getInt("playouts", 4, USAGE))
            .build();
    SearchBot bot = new SearchBot(GameServiceGrpc.newBlockingStub(GameServiceChannel.open(target)), template);
    System.err.println("run-search-bot: Simulate on " + target);
    BotServer.serve(bot, cli.get("host", "127.0.0.1"), cli.getInt("port", 50062, USAGE), "run-search-bot");
  }
}
