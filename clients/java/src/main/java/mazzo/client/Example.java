package mazzo.client;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import mazzo.v1.Game.GameOptions;
import mazzo.v1.Game.GameState;
import mazzo.v1.Game.Move;
import mazzo.v1.GameServiceGrpc;
import mazzo.v1.GameServiceGrpc.GameServiceBlockingStub;
import mazzo.v1.GameServiceOuterClass.ApplyMoveRequest;
import mazzo.v1.GameServiceOuterClass.ApplyMoveResponse;
import mazzo.v1.GameServiceOuterClass.DealRequest;
import mazzo.v1.GameServiceOuterClass.DealResponse;
import mazzo.v1.GameServiceOuterClass.ScoreRequest;
import mazzo.v1.GameServiceOuterClass.ScoreResponse;

/**
 * The client example: deals a match through GameService and plays it to the end with random legal
 * moves, one ApplyMove per move (each answer carries the next decision), then asks for the score.
 */
public final class Example {
  private static final String USAGE =
      "usage: run-example --target HOST:PORT [--game maraffa] [--players N] [--seed N]"
          + " [--options JSON]";
  /** A guard against a match that never ends; far above any real match. */
  private static final int MAX_MOVES = 1_000_000;

  private Example() {}

  public static void main(String[] args) throws InterruptedException {
    Cli cli;
    try {
      cli = Cli.parse(args, Set.of("target", "game", "players", "seed", "options"), USAGE);
      cli.require("target", USAGE);
    } catch (Cli.UsageError e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    String game = cli.get("game", "maraffa");
    int players = cli.getInt("players", 0, USAGE);
    Long givenSeed = cli.getSeed(USAGE);
    DealRequest.Builder deal = DealRequest.newBuilder().setGame(game).setPlayers(players);
    String options = cli.get("options", null);
    if (options != null) {
      deal.setOptions(parseOptions(options));
    }
    long seed = givenSeed != null ? givenSeed : new Random().nextInt(Integer.MAX_VALUE);
    Random random = new Random(seed);
    System.err.println("example: game=" + game + " seed=" + Long.toUnsignedString(seed));

    ManagedChannel channel = GameServiceChannel.open(cli.require("target", USAGE));
    try {
      GameServiceBlockingStub service = GameServiceGrpc.newBlockingStub(channel);
      DealResponse dealt =
          service
              .withDeadlineAfter(30, TimeUnit.SECONDS)
              .deal(deal.setSeed(seed).build());
      GameState state = dealt.getState();
      List<Move> legal = dealt.getLegalMovesList();
      int moves = 0;
      while (!legal.isEmpty()) {
        if (moves >= MAX_MOVES) {
          System.err.println("example: no end after " + MAX_MOVES + " moves");
          System.exit(1);
        }
        List<Integer> candidates = Moves.candidates(legal);
        Move move = legal.get(candidates.get(random.nextInt(candidates.size())));
        ApplyMoveResponse applied =
            service
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .applyMove(ApplyMoveRequest.newBuilder().setState(state).setMove(move).build());
        state = applied.getState();
        legal = applied.getLegalMovesList();
        moves++;
      }
      ScoreResponse score =
          service
              .withDeadlineAfter(30, TimeUnit.SECONDS)
              .score(ScoreRequest.newBuilder().setState(state).build());
      String winners =
          score.getWinnersList().stream().map(String::valueOf).collect(Collectors.joining(","));
      System.out.println(
          "finished "
              + state.getGame()
              + " players="
              + state.getPlayers()
              + " moves="
              + moves
              + " winners="
              + winners);
    } catch (StatusRuntimeException e) {
      System.err.println("example: " + e.getStatus().getCode() + ": " + e.getStatus().getDescription());
      System.exit(1);
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /**
   * The --options flag: the deal's GameOptions in proto3 JSON, unknown fields rejected. A bad
   * value: one line on stderr and exit 2.
   */
  private static GameOptions parseOptions(String json) {
    GameOptions.Builder options = GameOptions.newBuilder();
    try {
      JsonFormat.parser().merge(json, options);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      String reason = e.getMessage() == null ? e.toString() : e.getMessage();
      System.err.println("example: --options: " + reason.strip().replaceAll("\\s*\\R\\s*", " "));
      System.exit(2);
    }
    return options.build();
  }
}
