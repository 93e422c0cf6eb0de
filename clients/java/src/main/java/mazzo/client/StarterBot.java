package mazzo.client;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
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
  private static final Logger LOG = Logger.getLogger(StarterBot.class.getName());
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
    Cli cli;
    try {
      cli = Cli.parse(args, Set.of("host", "port", "seed"), USAGE);
    } catch (Cli.UsageError e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    String host = cli.get("host", "127.0.0.1");
    int port = cli.getInt("port", 50061, USAGE);
    Long seed = cli.getSeed(USAGE);
    Random random = seed == null ? new Random() : new Random(seed);

    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
            .addService(new StarterBot(random))
            .build()
            .start();

    // The JVM runs shutdown hooks on SIGTERM and SIGINT and would then exit 143/130; the
    // hook stops the server gracefully and halts with 0 instead, as a clean stop.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.err.println("run-bot: stopping");
                  server.shutdown();
                  try {
                    if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                      server.shutdownNow();
                    }
                  } catch (InterruptedException e) {
                    server.shutdownNow();
                  }
                  System.out.flush();
                  System.err.flush();
                  Runtime.getRuntime().halt(0);
                },
                "stop-bot"));

    String shownHost = host.contains(":") ? "[" + host + "]" : host;
    System.out.println("LISTENING " + shownHost + ":" + server.getPort());
    System.out.flush();
    LOG.info("starter bot serving mazzo.v1.Bot on " + shownHost + ":" + server.getPort());
    server.awaitTermination();
  }
}
