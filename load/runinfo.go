package load

import "time"

// RunInfo describes one worker's run as configured and as sent. It is kept
// in summary.json beside the run's results.bin, so that a merge of several
// workers' results can judge each worker against what it was asked for.
type RunInfo struct {
	// Attack is the Vegeta attack name on every result of the run
	// (scenario/w<worker id>/<random>), unique across workers.
	Attack   string `json:"attack"`
	Scenario string `json:"scenario"`
	// Target is the REST base URL the run was aimed at.
	Target string `json:"target"`
	// Pacing describes the requested rate ("1000/s", "ramp 100/s to 1000/s", "max").
	Pacing string `json:"pacing"`
	// RateFreq per RatePerNS nanoseconds is a constant rate; RampFrom and
	// RampTo (per second) a ramp; all zero: unlimited.
	RateFreq  int   `json:"rate_freq,omitempty"`
	RatePerNS int64 `json:"rate_per_ns,omitempty"`
	RampFrom  int   `json:"ramp_from,omitempty"`
	RampTo    int   `json:"ramp_to,omitempty"`
	// RequestedRate is the mean requested rate, requests per second (0: unlimited).
	RequestedRate float64 `json:"requested_rate"`
	DurationS     float64 `json:"duration_s"`
	// Expected is the number of requests the pacing asked for; Sent the
	// number the generator sent.
	Expected    uint64    `json:"expected_requests"`
	Sent        uint64    `json:"sent_requests"`
	Workers     uint64    `json:"workers"`
	MaxWorkers  uint64    `json:"max_workers"`
	Connections int       `json:"connections"`
	HTTPVersion string    `json:"http_version"`
	LocalAddr   string    `json:"local_addr,omitempty"`
	WorkerID    int       `json:"worker_id"`
	Started     time.Time `json:"started"`
	Ended       time.Time `json:"ended"`
	// Interrupted is set when the run was stopped before its duration.
	Interrupted bool `json:"interrupted,omitempty"`
	// Cleanup is what the scenario left on the target and removed after the run.
	Cleanup      *CleanupReport `json:"cleanup,omitempty"`
	CleanupError string         `json:"cleanup_error,omitempty"`
}

// pacing rebuilds the run's Pacing.
func (r RunInfo) pacing() Pacing {
	if r.RampFrom > 0 || r.RampTo > 0 {
		return Pacing{From: r.RampFrom, To: r.RampTo}
	}
	p := Pacing{}
	p.Rate.Freq, p.Rate.Per = r.RateFreq, time.Duration(r.RatePerNS)
	return p
}

func (r RunInfo) duration() time.Duration { return time.Duration(r.DurationS * float64(time.Second)) }

func newRunInfo(cfg RunConfig, attack string) RunInfo {
	info := RunInfo{
		Attack: attack, Scenario: cfg.Scenario.Name(), Target: cfg.Base.String(), Pacing: cfg.Pacing.String(),
		RateFreq: cfg.Pacing.Rate.Freq, RatePerNS: int64(cfg.Pacing.Rate.Per), RampFrom: cfg.Pacing.From, RampTo: cfg.Pacing.To,
		RequestedRate: cfg.Pacing.Mean(), DurationS: cfg.Duration.Seconds(), Expected: cfg.Pacing.Expected(cfg.Duration),
		Workers: cfg.Workers, MaxWorkers: cfg.MaxWorkers, Connections: cfg.Connections, HTTPVersion: httpVersion,
		WorkerID: cfg.WorkerID,
	}
	if cfg.LocalAddr != nil {
		info.LocalAddr = cfg.LocalAddr.String()
	}
	return info
}
