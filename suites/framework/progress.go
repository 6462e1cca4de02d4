package framework

import (
	"sync"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/progress"
)

// Progress writes this process's progress events (package progress) to
// the file conform names with -conform.progress: the number of specs
// selected, and each spec that starts and ends. Without a file it does
// nothing. Only the total is checked: a spec never fails for want of a
// progress line.
type Progress struct {
	mu      sync.Mutex
	w       *progress.Writer
	err     error
	running bool // a spec of this process started and has not ended
}

// maxSpecText bounds a spec's text in the file; conform shows it on one line.
const maxSpecText = 160

func (p *Progress) writer(path string) (*progress.Writer, error) {
	if p.w == nil && p.err == nil {
		p.w, p.err = progress.Open(path)
	}
	return p.w, p.err
}

// Total records the number of specs the run's filters select (from
// ReportBeforeSuite, which runs on process 1 only).
func (p *Progress) Total(path string, r types.Report) error {
	if path == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	w, err := p.writer(path)
	if err != nil {
		return err
	}
	return w.Write(progress.Event{Kind: progress.KindTotal, Total: r.PreRunStats.SpecsThatWillRun})
}

// Started records a spec about to run (from ReportBeforeEach); one that is
// filtered out, pending or skipped before it starts is not one.
func (p *Progress) Started(path string, s types.SpecReport) {
	if path == "" || s.State.Is(types.SpecStateSkipped|types.SpecStatePending) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, err := p.writer(path); err == nil {
		p.running = w.Write(progress.Event{Kind: progress.KindStart, Proc: s.ParallelProcess, Spec: clipText(s.FullText())}) == nil
	}
}

// Ended records the end of the spec Started recorded (from ReportAfterEach).
func (p *Progress) Ended(path string, s types.SpecReport) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if path == "" || !p.running || p.w == nil {
		return
	}
	p.running = false
	_ = p.w.Write(progress.Event{Kind: progress.KindEnd, Proc: s.ParallelProcess, Spec: clipText(s.FullText()), State: s.State.String()})
}

func clipText(s string) string {
	r := []rune(s)
	if len(r) <= maxSpecText {
		return s
	}
	return string(r[:maxSpecText-1]) + "…"
}
