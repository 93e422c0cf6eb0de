package mazzo.client;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.BadRequest;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.ClientCalls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import mazzo.v1.GameServiceGrpc;

/**
 * The conformance runner (clients/conformance/README.md): sends every vector's request to a live
 * GameService and checks the answer, comparing responses as messages and errors by code and
 * google.rpc.BadRequest field.
 */
public final class Conformance {
  private static final String USAGE = "usage: run-conformance --target HOST:PORT --vectors DIR";
  private static final JsonFormat.Parser JSON = JsonFormat.parser();

  private final ManagedChannel channel;
  /** GameService's methods by RPC name, found from the generated service descriptor. */
  private final Map<String, MethodDescriptor<Message, Message>> methods = new HashMap<>();

  private Conformance(ManagedChannel channel) {
    this.channel = channel;
    for (ServerMethodDefinition<?, ?> definition :
        new GameServiceGrpc.GameServiceImplBase() {}.bindService().getMethods()) {
      @SuppressWarnings("unchecked")
      MethodDescriptor<Message, Message> method =
          (MethodDescriptor<Message, Message>) definition.getMethodDescriptor();
      methods.put(method.getBareMethodName(), method);
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Cli cli;
    String target;
    String vectors;
    try {
      cli = Cli.parse(args, Set.of("target", "vectors"), USAGE);
      target = cli.require("target", USAGE);
      vectors = cli.require("vectors", USAGE);
    } catch (Cli.UsageError e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    ManagedChannel channel = GameServiceChannel.open(target);
    int passed = 0;
    int failed = 0;
    try {
      Conformance runner = new Conformance(channel);
      for (Path file : vectorFiles(Path.of(vectors))) {
        JsonObject root;
        try {
          root = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (IOException | RuntimeException e) {
          System.out.println("FAIL " + file.getFileName() + ": cannot read vectors: " + e.getMessage());
          failed++;
          continue;
        }
        for (JsonElement element : root.getAsJsonArray("vectors")) {
          JsonObject vector = element.getAsJsonObject();
          String name = vector.has("name") ? vector.get("name").getAsString() : file.getFileName() + "?";
          String problem;
          try {
            problem = runner.check(vector);
          } catch (RuntimeException | InvalidProtocolBufferException e) {
            problem = "bad vector: " + e;
          }
          if (problem == null) {
            passed++;
          } else {
            failed++;
            System.out.println("FAIL " + name + ": " + problem);
          }
        }
      }
    } catch (IOException e) {
      System.out.println("FAIL " + vectors + ": " + e.getMessage());
      failed++;
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    System.out.println("conformance java: passed=" + passed + " failed=" + failed);
    System.exit(failed == 0 && passed > 0 ? 0 : 1);
  }

  private static List<Path> vectorFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
    }
  }

  /** Runs one vector; returns null when it passed, else what differed. */
  private String check(JsonObject vector) throws InvalidProtocolBufferException {
    String rpc = vector.get("rpc").getAsString();
    MethodDescriptor<Message, Message> method = methods.get(rpc);
    if (method == null) {
      return "unknown rpc " + rpc;
    }
    Message.Builder request = prototype(method.getRequestMarshaller()).newBuilderForType();
    JSON.merge(vector.get("request").toString(), request);
    JsonObject expect = vector.getAsJsonObject("expect");

    Message actual;
    try {
      actual =
          ClientCalls.blockingUnaryCall(
              channel, method, CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), request.build());
    } catch (StatusRuntimeException e) {
      return checkError(expect, e);
    }
    if (!expect.has("response")) {
      return "expected error " + expect.get("error") + ", got a response";
    }
    Message.Builder expected = prototype(method.getResponseMarshaller()).newBuilderForType();
    JSON.merge(expect.get("response").toString(), expected);
    return MessageDiff.firstDifference(expected.build(), actual);
  }

  private static String checkError(JsonObject expect, StatusRuntimeException e) {
    String code = e.getStatus().getCode().name();
    if (!expect.has("error")) {
      return "expected a response, got " + code + ": " + e.getStatus().getDescription();
    }
    JsonObject error = expect.getAsJsonObject("error");
    String wantCode = error.get("code").getAsString();
    if (!wantCode.equals(code)) {
      return "expected code " + wantCode + ", got " + code + ": " + e.getStatus().getDescription();
    }
    if (!error.has("field")) {
      return null;
    }
    String wantField = error.get("field").getAsString();
    List<String> fields = badRequestFields(e);
    if (fields.contains(wantField)) {
      return null;
    }
    return "expected a BadRequest field violation on " + wantField + ", got " + fields;
  }

  /** The fields of every google.rpc.BadRequest field violation in the status details. */
  private static List<String> badRequestFields(StatusRuntimeException e) {
    List<String> fields = new ArrayList<>();
    com.google.rpc.Status status = StatusProto.fromThrowable(e);
    if (status == null) {
      return fields;
    }
    for (Any detail : status.getDetailsList()) {
      if (!detail.is(BadRequest.class)) {
        continue;
      }
      try {
        for (BadRequest.FieldViolation violation : detail.unpack(BadRequest.class).getFieldViolationsList()) {
          fields.add(violation.getField());
        }
      } catch (InvalidProtocolBufferException ignored) {
        // A detail that claims to be a BadRequest but is not one holds no field to match.
      }
    }
    return fields;
  }

  private static Message prototype(MethodDescriptor.Marshaller<Message> marshaller) {
    return ((MethodDescriptor.PrototypeMarshaller<Message>) marshaller).getMessagePrototype();
  }
}
