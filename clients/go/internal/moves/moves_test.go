package moves

import (
	"slices"
	"testing"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
)

func play(signal mazzov1.MaraffaSignal) *mazzov1.Move {
	return &mazzov1.Move{Move: &mazzov1.Move_Maraffa{Maraffa: &mazzov1.MaraffaMove{
		Action: &mazzov1.MaraffaMove_PlayCard{PlayCard: &mazzov1.MaraffaPlayCard{Signal: signal}}}}}
}

func claim() *mazzov1.Move {
	return &mazzov1.Move{Move: &mazzov1.Move_Maraffa{Maraffa: &mazzov1.MaraffaMove{
		Action: &mazzov1.MaraffaMove_Claim{Claim: &mazzov1.MaraffaClaim{}}}}}
}

func TestSafe(t *testing.T) {
	busso := mazzov1.MaraffaSignal_MARAFFA_SIGNAL_BUSSO
	none := mazzov1.MaraffaSignal_MARAFFA_SIGNAL_UNSPECIFIED
	other := &mazzov1.Move{Move: &mazzov1.Move_Burraco{Burraco: &mazzov1.BurracoMove{}}}
	cases := []struct {
		name  string
		legal []*mazzov1.Move
		want  []int
	}{
		{"plain plays win over signals and claims", []*mazzov1.Move{claim(), play(busso), play(none), play(none)}, []int{2, 3}},
		{"only signals left: take them, never the claim", []*mazzov1.Move{play(busso), claim(), play(busso)}, []int{0, 2}},
		{"other games' moves are plain", []*mazzov1.Move{other, other}, []int{0, 1}},
		{"nothing but a claim: fall back to it", []*mazzov1.Move{claim()}, []int{0}},
		{"no legal move", nil, []int{}},
	}
	for _, c := range cases {
		if got := Safe(c.legal); !slices.Equal(got, c.want) {
			t.Errorf("%s: Safe = %v, want %v", c.name, got, c.want)
		}
	}
}
