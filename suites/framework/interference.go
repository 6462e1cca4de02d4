package framework

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// On a sandbox the suite's two accounts trade on a market others may use: a
// third party's order can take the suite's resting order or fill its taker
// first, and a spec would then fail for what the target did right. The
// helpers that trade (trading.Market) call Interfered when what the target
// answered shows another party in the trade; the spec's body then runs once
// more from the start (choosing its market again, where the price may have
// moved), and skips saying so when the second attempt is disturbed too. A
// skip is never a pass: --certify still counts the rule as not run.

// EntryInterference names the report entry of a first attempt that a third
// party disturbed.
const EntryInterference = "interference"

// interference is what Interfered panics with; the node wrapper recovers it.
type interference struct{ reason string }

func (i interference) String() string { return "a third party's order interfered: " + i.reason }

// Interfered ends the current attempt of the spec because a third party took
// part in its trades (reason says what the target answered). Outside a body
// that can run again (a cleanup), the spec skips at once.
func Interfered(reason string) {
	GinkgoHelper()
	if env == nil || !env.retrying {
		Skip("a third party's order interfered with the suite's trades: " + reason)
	}
	panic(interference{reason})
}

func init() {
	// Every It and setup body is wrapped where the tree is built: the wrapper
	// does nothing unless Interfered is called inside it.
	AddTreeConstructionNodeArgsTransformer(func(t types.NodeType, _ Offset, text string, args []any) (string, []any, []error) {
		if !t.Is(types.NodeTypeIt | types.NodeTypeBeforeEach | types.NodeTypeJustBeforeEach | types.NodeTypeBeforeAll) {
			return text, args, nil
		}
		for i, a := range args {
			switch body := a.(type) {
			case func():
				args[i] = func(ctx SpecContext) { retryOnInterference(ctx, func(SpecContext) { body() }) }
			case func(SpecContext):
				args[i] = func(ctx SpecContext) { retryOnInterference(ctx, body) }
			case func(context.Context):
				args[i] = func(ctx SpecContext) { retryOnInterference(ctx, func(c SpecContext) { body(c) }) }
			}
		}
		return text, args, nil
	})
}

// retryOnInterference runs body, and once more when a third party
// interfered with the first attempt; a second interference skips.
func retryOnInterference(ctx SpecContext, body func(SpecContext)) {
	first := attempt(ctx, body)
	if first == nil {
		return
	}
	reportEntry(EntryInterference, first.String()+"; the spec runs once more", ReportEntryVisibilityAlways)
	if second := attempt(ctx, body); second != nil {
		Skip(fmt.Sprintf("a third party's order interfered with the suite's trades twice (first: %s; then: %s)", first.reason, second.reason))
	}
}

// attempt runs body, returning the interference that ended it, if any. Every
// other panic (Ginkgo's failures and skips included) passes through.
func attempt(ctx SpecContext, body func(SpecContext)) (got *interference) {
	if env != nil {
		prev := env.retrying
		env.retrying = true
		defer func() { env.retrying = prev }()
	}
	defer func() {
		if r := recover(); r != nil {
			i, ok := r.(interference)
			if !ok {
				panic(r)
			}
			got = &i
		}
	}()
	body(ctx)
	return nil
}
