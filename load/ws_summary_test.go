package load

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
	"time"
)

// streamRec is a ws-market record of n trades asked for at 10/s over 1s,
// sent and ok as given, with latencies in milliseconds.
func streamRec(sent, ok uint64, gaps, disconnects uint64, interrupted bool, lat ...int) StreamRecord {
	start := time.Unix(1_800_000_000, 0)
	var h Histogram
	secs := StreamSecond{Unix: start.Unix(), LatencyMS: map[int]uint64{}, Messages: uint64(len(lat))}
	for _, ms := range lat {
		h.Record(time.Duration(ms) * time.Millisecond)
		secs.LatencyMS[ms]++
	}
	return StreamRecord{
		Run: StreamRunInfo{Scenario: ScenarioWSMarket, Attack: "ws-market/w0/x", Target: "ws://t", Subscribers: 4, Rate: 10, Duration: time.Second,
			Started: start, Driving: start, DriverDone: start.Add(900 * time.Millisecond), Ended: start.Add(time.Second), Interrupted: interrupted},
		Latency: h.Sparse(), Seconds: []StreamSecond{secs}, Messages: uint64(len(lat)), MessagesByChannel: map[string]uint64{"trades": uint64(len(lat))},
		Gaps: gaps, Disconnects: disconnects, Opened: 4, PeakOpen: 4, Ops: OpCounts{Sent: sent, OK: ok},
	}
}

func mustThresholds(t *testing.T, exprs ...string) []Threshold {
	t.Helper()
	var ts []Threshold
	for _, e := range exprs {
		th, err := ParseThreshold(e)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	return ts
}

func TestAnalyzeStreamVerdicts(t *testing.T) {
	fast := []int{2, 3, 3, 4, 5}
	for _, tc := range []struct {
		name       string
		recs       []StreamRecord
		thresholds []string
		status     string
		breached   []string
	}{
		{"pass", []StreamRecord{streamRec(10, 10, 0, 0, false, fast...)}, []string{"p99<50ms", "gaps==0", "disconnects==0", "success>0.99"}, StatusPass, nil},
		{"slow p99", []StreamRecord{streamRec(10, 10, 0, 0, false, 2, 3, 80)}, []string{"p99<50ms", "gaps==0"}, StatusBreached, []string{"p99<50ms"}},
		{"gaps and disconnects", []StreamRecord{streamRec(10, 10, 3, 1, false, fast...)}, []string{"gaps==0", "disconnects==0", "disconnects<=1"}, StatusBreached, []string{"gaps==0", "disconnects==0"}},
		{"failed trades", []StreamRecord{streamRec(10, 8, 0, 0, false, fast...)}, []string{"success>0.99"}, StatusBreached, []string{"success>0.99"}},
		{"driver short", []StreamRecord{streamRec(5, 5, 0, 0, false, fast...)}, []string{"gaps==0"}, StatusInvalid, nil},
		{"interrupted", []StreamRecord{streamRec(5, 5, 0, 0, true, fast...)}, []string{"gaps==0"}, StatusInterrupted, nil},
		{"no latency", []StreamRecord{streamRec(10, 10, 0, 0, false)}, []string{"p99<50ms"}, StatusBreached, []string{"p99<50ms"}},
		{"merged workers", []StreamRecord{streamRec(10, 10, 0, 0, false, fast...), streamRec(10, 10, 2, 0, false, fast...)}, []string{"gaps==0", "messages>1"}, StatusBreached, []string{"gaps==0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := AnalyzeStream(tc.recs, "t", mustThresholds(t, tc.thresholds...))
			s := a.Summary
			if s.Verdict.Status != tc.status {
				t.Errorf("status %s, want %s (problems %v, thresholds %+v)", s.Verdict.Status, tc.status, s.Verdict.Problems, s.Verdict.Thresholds)
			}
			var breached []string
			for _, r := range s.Verdict.Thresholds {
				if !r.Pass {
					breached = append(breached, r.Threshold)
				}
			}
			if strings.Join(breached, ",") != strings.Join(tc.breached, ",") {
				t.Errorf("breached %v, want %v", breached, tc.breached)
			}
			var html, text bytes.Buffer
			if err := a.WriteHTML(&html); err != nil || !strings.Contains(html.String(), "Connections over time") || !strings.Contains(html.String(), "<h2>Summary</h2>") {
				t.Errorf("report: %v", err)
			}
			for _, b := range tc.breached { // the shared summary template's thresholds table
				if !strings.Contains(html.String(), "<td>"+template.HTMLEscapeString(b)+"</td>") {
					t.Errorf("report.html does not list the breached threshold %s", b)
				}
			}
			if err := s.WriteText(&text); err != nil || !strings.Contains(text.String(), "verdict") {
				t.Errorf("text: %v\n%s", err, text.String())
			}
		})
	}
}

func TestAnalyzeStreamMergesFigures(t *testing.T) {
	a := AnalyzeStream([]StreamRecord{streamRec(10, 10, 1, 0, false, 1, 2), streamRec(10, 9, 2, 1, false, 3, 4, 5)}, "t", nil).Summary
	if a.Samples != 5 || a.Gaps != 3 || a.Disconnects != 1 || a.Ops.Sent != 20 || a.Ops.OK != 19 || a.RequestedOps != 20 ||
		a.Opened != 8 || a.MessagesByChannel["trades"] != 5 || len(a.Runs) != 2 || a.Latency.MaxMS != 5 {
		t.Errorf("merged: %+v", a)
	}
	// success: (8 subscriptions + 19 trades) of (8 + 20)
	if want := 27.0 / 28; a.Success < want-1e-9 || a.Success > want+1e-9 {
		t.Errorf("success %v, want %v", a.Success, want)
	}
}

// TestAnalyzeStreamGapsByChannelAndUnseen: the gaps of each judged channel
// and the trades nobody received add up over workers; unseen trades warn
// without changing the verdict.
func TestAnalyzeStreamGapsByChannelAndUnseen(t *testing.T) {
	r1, r2 := streamRec(10, 10, 3, 0, false, 1), streamRec(10, 10, 1, 0, false, 2)
	r1.GapsByChannel = map[string]uint64{"trades": 1, "orderbook": 2}
	r2.GapsByChannel = map[string]uint64{"trades": 1}
	r1.Unseen, r2.Unseen = 4, 3
	s := AnalyzeStream([]StreamRecord{r1, r2}, "t", nil).Summary
	if s.Gaps != 4 || s.GapsByChannel["trades"] != 2 || s.GapsByChannel["orderbook"] != 2 || s.Unseen != 7 {
		t.Errorf("gaps %d by channel %v, unseen %d: want 4, trades 2 and orderbook 2, 7", s.Gaps, s.GapsByChannel, s.Unseen)
	}
	if s.Verdict.Status != StatusPass || len(s.Verdict.Warnings) != 1 || !strings.Contains(s.Verdict.Warnings[0], "7 of the driver's 20 trades reached no subscriber") {
		t.Errorf("verdict %+v", s.Verdict)
	}
	var text bytes.Buffer
	if err := s.WriteText(&text); err != nil || !strings.Contains(text.String(), "4 missing in the middle (orderbook 2, trades 2)") {
		t.Errorf("text: %v\n%s", err, text.String())
	}
}
