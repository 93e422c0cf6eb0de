// Package moves holds the move filter the starter bot and the example share.
package moves

import (
	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
)

// IsClaim reports whether m is a Maraffa claim ("chiamarsi fuori"): a false
// claim loses the match at once, so random players never make one.
func IsClaim(m *mazzov1.Move) bool {
	return m.GetMaraffa().GetClaim() != nil
}

// HasSignal reports whether m is a Maraffa card play that carries a signal.
// A signal is a promise about the hand; a random one can be illegal under
// signals_checked and misleads a partner, so plain plays are preferred.
func HasSignal(m *mazzov1.Move) bool {
	pc := m.GetMaraffa().GetPlayCard()
	return pc != nil && pc.GetSignal() != mazzov1.MaraffaSignal_MARAFFA_SIGNAL_UNSPECIFIED
}

// Safe returns the indexes of the moves a random player may pick: never a
// claim, and only unsignalled moves when there is at least one. It falls back
// to every index when nothing else is left, so the result is empty only when
// legal is.
func Safe(legal []*mazzov1.Move) []int {
	var plain, signalled []int
	for i, m := range legal {
		switch {
		case IsClaim(m):
		case HasSignal(m):
			signalled = append(signalled, i)
		default:
			plain = append(plain, i)
		}
	}
	switch {
	case len(plain) > 0:
		return plain
	case len(signalled) > 0:
		return signalled
	}
	all := make([]int, len(legal))
	for i := range legal {
		all[i] = i
	}
	return all
}
