package mazzo.client;

import java.util.ArrayList;
import java.util.List;
import mazzo.v1.Game.Move;
import mazzo.v1.Maraffa.MaraffaMove;
import mazzo.v1.Maraffa.MaraffaSignal;

/** What a random player needs to know about moves, shared by the bot and the example. */
final class Moves {
  private Moves() {}

  /** A Maraffa claim: a false one loses the match at once, so random players never make it. */
  static boolean isClaim(Move move) {
    return move.hasMaraffa() && move.getMaraffa().getActionCase() == MaraffaMove.ActionCase.CLAIM;
  }

  /** A Maraffa card play that carries a signal (a signal that is not true can be illegal or misleading). */
  static boolean hasSignal(Move move) {
    if (!move.hasMaraffa() || !move.getMaraffa().hasPlayCard()) {
      return false;
    }
    MaraffaSignal signal = move.getMaraffa().getPlayCard().getSignal();
    return signal != MaraffaSignal.MARAFFA_SIGNAL_UNSPECIFIED;
  }

  /**
   * The indexes a random player picks from: no claims, and no signals when a plain move exists.
   * Falls back to every index when filtering would leave nothing.
   */
  static List<Integer> candidates(List<Move> legal) {
    List<Integer> noClaim = new ArrayList<>();
    List<Integer> plain = new ArrayList<>();
    for (int i = 0; i < legal.size(); i++) {
      Move move = legal.get(i);
      if (isClaim(move)) {
        continue;
      }
      noClaim.add(i);
      if (!hasSignal(move)) {
        plain.add(i);
      }
    }
    if (!plain.isEmpty()) {
      return plain;
    }
    if (!noClaim.isEmpty()) {
      return noClaim;
    }
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < legal.size(); i++) {
      all.add(i);
    }
    return all;
  }
}
