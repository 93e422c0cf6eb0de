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
 * The starter bot: a {@code mazzo.v1.Bot} server that plays a random legal move, or with {@code
 * --connect} a bot that dials in to a referee's gateway ({@link DialIn}); the same {@link #choose}
 * decides either way.
 *
 * <p>Put a real strategy in {@link #choose}: it gets everything the referee sends (the seat's view,
 * the legal moves, the time left) and returns the index of the move to play.
 */
public final class StarterBot extends BotGrpc.BotImplBase {
  private static final String USAGE =
      "usage: run-bot [--host 127.0.0.1] [--port 50061] [--seed N]   (--port 0 picks a free port)\n"
          + "       run-bot --connect HOST:PORT --token T [--name NAME] [--ca PEM] [--seed N]"
          + "   (dial in to a referee's gateway; grpcs://HOST:PORT for TLS)";

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

  /**
   * Serves until SIGTERM or SIGINT, then finishes the calls in flight and exits 0; with {@code
   * --connect}, plays until the gateway ends the run (exit 0) or refuses the bot for good (exit 2).
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    Cli cli =
        Cli.parseOrExit(args, Set.of("host", "port", "seed", "connect", "token", "name", "ca"), USAGE);
    Long seed = cli.getSeed(USAGE);
    StarterBot bot = new StarterBot(seed == null ? new Random() : new Random(seed));
    String connect = cli.get("connect", null);
    if (connect != null) {
      String token = cli.get("token", null);
      if (token == null || token.isEmpty()) {
        System.err.println("--connect needs --token\n" + USAGE);
        System.exit(2);
      }
      String name = cli.get("name", "");
      DialIn dial = new DialIn(connect, token, name, cli.get("ca", null), bot::choose, "run-bot");
      System.exit(dial.run());
    }
    BotServer.serve(bot, cli.get("host", "127.0.0.1"), cli.getInt("port", 50061, USAGE), "run-bot");
  }
}
