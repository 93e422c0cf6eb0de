package mazzo.client;

import com.google.gson.Gson;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The channel to a GameService that the example, the conformance runner and the search bot use:
 * plaintext, with the repo's gRPC service config ({@code clients/service-config.json}, which
 * retries UNAVAILABLE on every GameService call). The build copies that file into the jar (see
 * pom.xml), so the config read here is always the file itself.
 */
final class GameServiceChannel {
  /** Where pom.xml puts {@code clients/service-config.json} on the classpath. */
  static final String CONFIG_RESOURCE = "/mazzo/client/service-config.json";

  private GameServiceChannel() {}

  /** The service config as grpc-java takes it: JSON objects as maps, numbers as Doubles. */
  static Map<String, ?> serviceConfig() {
    try (InputStream in = GameServiceChannel.class.getResourceAsStream(CONFIG_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(CONFIG_RESOURCE + " is missing from the jar: rebuild it");
      }
      @SuppressWarnings("unchecked")
      Map<String, ?> config =
          new Gson().fromJson(new String(in.readAllBytes(), StandardCharsets.UTF_8), Map.class);
      return config;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A channel to {@code target} (HOST:PORT) that retries as the service config says. */
  static ManagedChannel open(String target) {
    return NettyChannelBuilder.forTarget(target)
        .usePlaintext()
        .defaultServiceConfig(serviceConfig())
        .enableRetry()
        .build();
  }
}
