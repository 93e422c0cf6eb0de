package mazzo.client;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.Set;
import mazzo.v1.BotGrpc;
import mazzo.v1.BotOuterClass.ActRequest;
import mazzo.v1.BotOuterClass.ActResponse;

/**
 * The starter bot: a {@code mazzo.v1.Bot} server that plays a random legal move.
 *
 * <p>Put a real strategy in {@link #choose}: it gets everything the referee sends (the seat's view,
 * the legal moves, the time left) and returns the index of the move to play.
 */
public final class StarterBot extends BotGrpc.BotImplBase {
  private static final String USAGE =
      "usage: run-bot [--host 127.0.0.1] [--port 50061] [--seed N]   (--port 0 picks a free port)";

  private final Random random;

  StarterBot(Random random) {
    this.random = random;
  }

  /**
   * Picks the move to play: an index into {@code request.getLegalMovesList()}.
   *
   * <p>This is the place for a strategy. The starter picks at random, but never a Maraffa claim
   * (a false claim loses the match at once) and, when it can, a move without a signal.
   */
  int choose(ActRequest request) {
    List<Integer> candidates = Moves.candidates(request.getLegalMovesList());
    synchronized (random) {
      return candidates.get(random.nextInt(candidates.size()));
    }
  }

  @Override
  public void act(ActRequest request, StreamObserver<ActResponse> responses) {
    if (request.getLegalMovesCount() == 0) {
      responses.onError(
          Status.FAILED_PRECONDITION.withDescription("no legal move to choose from").asRuntimeException());
      return;
    }
    int index = choose(request);
    responses.onNext(ActResponse.newBuilder().setIndex(index).build());
    responses.onCompleted();
  }

  /** Serves until SIGTERM or SIGINT, then finishes the calls in flight and exits 0. */
  public static void main(String[] args) throws IOException, InterruptedException {
    Cli cli = Cli.parseOrExit(args, Set.of("host", "port", "seed"), USAGE);
    String host = cli.get("host", "127.0.0.1");
    int port = cli.getInt("port", 50061, USAGE);
    Long seed = cli.getSeed(USAGE);
    Random random = seed == null ? new Random() : new Random(seed);

    BotServer.serve(new StarterBot(random), host, port, "run-bot");
  }
}
