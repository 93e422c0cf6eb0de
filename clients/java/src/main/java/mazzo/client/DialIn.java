package mazzo.client;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.StreamObserver;
import java.io.File;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import mazzo.v1.BotOuterClass.ActRequest;
import mazzo.v1.BotOuterClass.ActResponse;
import mazzo.v1.TablesGrpc;
import mazzo.v1.TablesOuterClass.Answer;
import mazzo.v1.TablesOuterClass.BotMessage;
import mazzo.v1.TablesOuterClass.Decision;
import mazzo.v1.TablesOuterClass.Hello;
import mazzo.v1.TablesOuterClass.TableMessage;

/**
 * Dialing in to a referee's gateway ({@code mazzo.v1.Tables/Join}) instead of serving: for a bot
 * the referee cannot reach. It answers every decision with the same choose function a served bot uses,
 * and dials again after a dropped connection (the gateway sends the pending decision again, with
 * the same sequence number).
 */
final class DialIn {
  /** The protocol version of {@code mazzo.v1.Tables} spoken here. */
  static final int PROTOCOL_VERSION = 1;
  /** Refusals that trying again cannot mend: stop and say why. */
  private static final Set<Status.Code> FINAL =
      Set.of(
          Status.Code.UNAUTHENTICATED, Status.Code.FAILED_PRECONDITION, Status.Code.INVALID_ARGUMENT);
  /** How long a dropped connection is dialed again before giving up. */
  private static final long RETRY_FOR_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final String target;
  private final boolean tls;
  private final String token;
  private final String name;
  private final File ca;
  private final ToIntFunction<ActRequest> choose;
  private final String prog;

  /**
   * {@code target} is HOST:PORT, or grpcs://HOST:PORT for TLS (checked against {@code ca}, a PEM
   * file, when given, else the system's roots); an empty {@code name} plays as the token's name.
   */
  DialIn(
      String target,
      String token,
      String name,
      String ca,
      ToIntFunction<ActRequest> choose,
      String prog) {
    this.tls = target.startsWith("grpcs://");
    this.target = target.replaceFirst("^grpcs?://", "");
    this.token = token;
    this.name = name;
    this.ca = ca == null ? null : new File(ca);
    this.choose = choose;
    this.prog = prog;
  }

  /**
   * Plays until the gateway ends the stream (exit code 0), a refusal that retrying cannot mend (2),
   * or no connection for 30 s (1).
   */
  int run() throws IOException, InterruptedException {
    ChannelCredentials credentials = InsecureChannelCredentials.create();
    if (tls) {
      credentials =
          ca == null
              ? TlsChannelCredentials.create()
              : TlsChannelCredentials.newBuilder().trustManager(ca).build();
    }
    long giveUp = System.nanoTime() + RETRY_FOR_NANOS;
    long delayMillis = 100;
    while (true) {
      ManagedChannel channel = Grpc.newChannelBuilder(target, credentials).build();
      Stream stream = new Stream();
      Status status;
      try {
        status = stream.play(channel);
      } finally {
        channel.shutdownNow();
        channel.awaitTermination(1, TimeUnit.SECONDS);
      }
      if (status.isOk()) {
        return 0; // the gateway ended the stream: the run is over
      }
      if (FINAL.contains(status.getCode())) {
        System.err.println(
            prog + ": refused: " + status.getCode() + ": " + status.getDescription());
        return 2;
      }
      if (stream.joined) { // it was playing: a new drop, a whole new wait
        giveUp = System.nanoTime() + RETRY_FOR_NANOS;
        delayMillis = 100;
      }
      if (System.nanoTime() - giveUp >= 0) {
        break;
      }
      System.err.println(prog + ": connection lost (" + status.getCode() + "); dialing again");
      Thread.sleep(delayMillis);
      delayMillis = Math.min(delayMillis * 2, 2000);
      if (System.nanoTime() - giveUp >= 0) {
        break;
      }
    }
    System.err.println(prog + ": cannot reach the gateway at " + target);
    return 1;
  }

  /** One stream: the Hello, then an answer per decision. */
  private final class Stream implements StreamObserver<TableMessage> {
    private final CompletableFuture<Status> done = new CompletableFuture<>();
    private StreamObserver<BotMessage> answers;
    /** Set once the gateway welcomed the bot. */
    volatile boolean joined;

    /** Plays the stream to its end: OK when the gateway ended it, else why it broke. */
    Status play(ManagedChannel channel) throws InterruptedException {
      Hello hello =
          Hello.newBuilder()
              .setToken(token)
              .setName(name)
              .setProtocolVersion(PROTOCOL_VERSION)
              .build();
      synchronized (this) {
        answers = TablesGrpc.newStub(channel).join(this);
        answers.onNext(BotMessage.newBuilder().setHello(hello).build());
      }
      try {
        return done.get();
      } catch (ExecutionException e) {
        return Status.fromThrowable(e.getCause());
      }
    }

    @Override
    public synchronized void onNext(TableMessage message) {
      switch (message.getKindCase()) {
        case DECISION -> {
          Decision decision = message.getDecision();
          ActResponse.Builder response = ActResponse.newBuilder();
          if (decision.getRequest().getLegalMovesCount() > 0) {
            response.setIndex(choose.applyAsInt(decision.getRequest()));
          } else { // nothing to choose: an empty answer, which the gateway refuses
            System.err.println(
                prog + ": decision " + decision.getSequence() + " has no legal move");
          }
          Answer answer =
              Answer.newBuilder()
                  .setSequence(decision.getSequence())
                  .setResponse(response)
                  .setMatchId(decision.getMatchId())
                  .build();
          answers.onNext(BotMessage.newBuilder().setAnswer(answer).build());
        }
        case WELCOME -> {
          joined = true;
          System.out.println("JOINED " + message.getWelcome().getName());
          System.out.flush();
        }
        case REFUSAL -> {
          var refusal = message.getRefusal();
          System.err.println(
              prog + ": answer " + refusal.getSequence() + " refused: " + refusal.getReason());
        }
        case MATCH_STARTED ->
            System.err.println(prog + ": match started: " + message.getMatchStarted().getMatchId());
        case MATCH_ENDED ->
            System.err.println(prog + ": match ended: " + message.getMatchEnded().getMatchId());
        default -> {}
      }
    }

    @Override
    public synchronized void onError(Throwable t) {
      done.complete(Status.fromThrowable(t));
    }

    @Override
    public synchronized void onCompleted() {
      answers.onCompleted();
      done.complete(Status.OK);
    }
  }
}
