package mazzo.client;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** Runs a {@code mazzo.v1.Bot} server the way both starter bots do. */
final class BotServer {
  private BotServer() {}

  /**
   * Serves {@code bot} on host:port (port 0 picks a free one), prints {@code LISTENING host:port}
   * once it is ready, and serves until SIGTERM or SIGINT, then finishes the calls in flight (at
   * most 5 s) and exits 0.
   */
  static void serve(BindableService bot, String host, int port, String name)
      throws IOException, InterruptedException {
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress(host, port)).addService(bot).build().start();

    // The JVM runs shutdown hooks on SIGTERM and SIGINT and would then exit 143/130; the
    // hook stops the server gracefully and halts with 0 instead, as a clean stop.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.err.println(name + ": stopping");
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
    System.err.println(name + ": serving mazzo.v1.Bot on " + shownHost + ":" + server.getPort());
    server.awaitTermination();
  }
}
