package mazzo.client;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import mazzo.v1.Game.GameState;
import mazzo.v1.GameServiceGrpc;
import mazzo.v1.GameServiceOuterClass.DealResponse;

/**
 * The conformance runner (clients/conformance/README.md): sends every vector's request to a live
 * GameService and checks the answer, comparing responses as messages and errors by code and
 * google.rpc.BadRequest field. A sealed vector is a sequence of calls, each step's token taken from an
 * earlier answer; a verify_deal_commitment vector is checked locally with {@link Fair}, no call.
 */
public final class Conformance {
  private static final String USAGE = "usage: run-conformance --target HOST:PORT --vectors DIR";
  private static final JsonFormat.Parser JSON = JsonFormat.parser();
  /** Random, or keyed by the server's key: cleared before comparing, their shape checked. */
  private static final List<String> RANDOM_FIELDS =
      List.of("sealed_states", "match_id", "deal_commitment");

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
    if (vector.has("steps")) {
      return checkSealed(vector.getAsJsonArray("steps"));
    }
    if (vector.has("verify_deal_commitment")) {
      JsonObject given = vector.getAsJsonObject("verify_deal_commitment");
      GameState.Builder dealt = GameState.newBuilder();
      JSON.merge(given.get("dealt_state").toString(), dealt);
      boolean valid =
          Fair.verifyDealCommitment(
              HexFormat.of().parseHex(given.get("commitment").getAsString()),
              HexFormat.of().parseHex(given.get("salt").getAsString()),
              Long.parseUnsignedLong(given.get("seed").getAsString()),
              dealt.build());
      boolean want = vector.getAsJsonObject("expect").get("valid").getAsBoolean();
      return valid == want ? null : "verifyDealCommitment gave " + valid;
    }
    Message[] answer = new Message[1];
    return call(vector, new ArrayList<>(), answer);
  }

  /** A sealed exchange; every answer's tokens checked by their header (docs/sealing.md). */
  private String checkSealed(com.google.gson.JsonArray steps) throws InvalidProtocolBufferException {
    List<Message> answers = new ArrayList<>();
    String matchId = null;
    for (int i = 0; i < steps.size(); i++) {
      JsonObject step = steps.get(i).getAsJsonObject();
      Message[] answer = new Message[1];
      String problem = call(step, answers, answer);
      if (problem != null) {
        return "step " + i + " (" + step.get("rpc").getAsString() + "): " + problem;
      }
      answers.add(answer[0]);
      JsonObject expect = step.getAsJsonObject("expect");
      if (answer[0] == null || !expect.has("sealed")) {
        continue;
      }
      JsonObject sealed = expect.getAsJsonObject("sealed");
      List<ByteString> tokens = sealedStates(answer[0]);
      if (tokens.size() != sealed.get("tokens").getAsInt()) {
        return "step " + i + ": " + tokens.size() + " tokens, expected " + sealed.get("tokens");
      }
      for (int seat = 0; seat < tokens.size(); seat++) {
        byte[] t = tokens.get(seat).toByteArray();
        int n = t.length > 1 ? 2 + t[1] : 0;
        if (t.length < 2 || t[0] != 1 || t[1] < 1 || t[1] > 32 || t.length < n + 22 + 12 + 16) {
          return "step " + i + ": token " + seat + " has no version 1 header";
        }
        long move = Integer.toUnsignedLong(ByteBuffer.wrap(t, n + 16, 4).getInt());
        if (move != sealed.get("move").getAsLong() || t[n + 20] != seat || t[n + 21] != tokens.size()) {
          return "step " + i + ": token " + seat + ": move " + move + ", seat " + t[n + 20] + " of " + t[n + 21];
        }
        String id = HexFormat.of().formatHex(t, n, n + 16);
        if (matchId == null) {
          matchId = id;
        } else if (!matchId.equals(id)) {
          return "step " + i + ": token " + seat + " is of another match";
        }
      }
      if (answer[0] instanceof DealResponse) {
        DealResponse deal = (DealResponse) answer[0];
        if (!deal.getMatchId().equals(matchId) || deal.getDealCommitment().size() != 32) {
          return "step " + i + ": match_id " + deal.getMatchId() + " or a deal_commitment not of 32 bytes";
        }
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static List<ByteString> sealedStates(Message message) {
    FieldDescriptor field = message.getDescriptorForType().findFieldByName("sealed_states");
    return field == null ? List.of() : (List<ByteString>) message.getField(field);
  }

  /**
   * One call (with its step's token put in); returns null when it held, else what differed. The
   * answer, when there is one, goes into answer[0].
   */
  private String call(JsonObject vector, List<Message> answers, Message[] answer)
      throws InvalidProtocolBufferException {
    String rpc = vector.get("rpc").getAsString();
    MethodDescriptor<Message, Message> method = methods.get(rpc);
    if (method == null) {
      return "unknown rpc " + rpc;
    }
    Message.Builder request = prototype(method.getRequestMarshaller()).newBuilderForType();
    JSON.merge(vector.get("request").toString(), request);
    if (vector.has("token")) {
      JsonObject given = vector.getAsJsonObject("token");
      Message from = answers.get(given.get("step").getAsInt());
      if (from == null) {
        return "no answer at step " + given.get("step");
      }
      byte[] token = sealedStates(from).get(given.get("seat").getAsInt()).toByteArray();
      if (given.has("flip_byte")) {
        int at = given.get("flip_byte").getAsInt();
        token[at < 0 ? token.length + at : at] ^= 1;
      }
      request.setField(
          request.getDescriptorForType().findFieldByName("sealed_state"), ByteString.copyFrom(token));
    }
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
    Message shown = actual;
    if (expect.has("sealed")) {
      Message.Builder cleared = actual.toBuilder();
      for (String name : RANDOM_FIELDS) {
        FieldDescriptor field = cleared.getDescriptorForType().findFieldByName(name);
        if (field != null) {
          cleared.clearField(field);
        }
      }
      shown = cleared.build();
    }
    answer[0] = actual;
    return MessageDiff.firstDifference(expected.build(), shown);
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
