package load

import (
	"strconv"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// figures are the counts of Vegeta's Metrics that a summary uses, computed
// as Metrics computes them, without what it keeps besides (a t-digest of
// latencies and a status-code string per result: the latencies are in the
// aggregate's Histogram), which cost as much as the rest of the analysis.
type figures struct {
	Requests uint64
	// codes counts the results by status code below maxCountedCode (a
	// map access per result was a tenth of the analysis); others, which
	// an HTTP status line cannot give, in otherCodes.
	codes      *[maxCountedCode]uint64
	otherCodes map[uint16]uint64
	BytesOut   uint64
	Earliest   time.Time
	Latest     time.Time
	end        time.Time
	success    uint64

	// Set by close, as by Metrics.Close.
	Rate, Throughput, Success float64
	Duration                  time.Duration
}

// maxCountedCode bounds the status codes counted in an array: three
// digits, as a status line has them (and 0: no response).
const maxCountedCode = 1000

func (m *figures) add(r *vegeta.Result) {
	m.Requests++
	if m.codes == nil {
		m.codes = new([maxCountedCode]uint64)
	}
	if r.Code < maxCountedCode {
		m.codes[r.Code]++
	} else {
		if m.otherCodes == nil {
			m.otherCodes = map[uint16]uint64{}
		}
		m.otherCodes[r.Code]++
	}
	m.BytesOut += r.BytesOut
	if m.Earliest.IsZero() || m.Earliest.After(r.Timestamp) {
		m.Earliest = r.Timestamp
	}
	if r.Timestamp.After(m.Latest) {
		m.Latest = r.Timestamp
	}
	if end := r.End(); end.After(m.end) {
		m.end = end
	}
	if r.Code >= 200 && r.Code < 400 {
		m.success++
	}
}

// merge adds the counts of o to m (close computes the rest).
func (m *figures) merge(o *figures) {
	if o.Requests == 0 {
		return
	}
	if m.Requests == 0 || o.Earliest.Before(m.Earliest) {
		m.Earliest = o.Earliest
	}
	if o.Latest.After(m.Latest) {
		m.Latest = o.Latest
	}
	if o.end.After(m.end) {
		m.end = o.end
	}
	m.Requests += o.Requests
	m.BytesOut += o.BytesOut
	m.success += o.success
	if o.codes != nil {
		if m.codes == nil {
			m.codes = new([maxCountedCode]uint64)
		}
		for c, n := range o.codes {
			m.codes[c] += n
		}
	}
	for c, n := range o.otherCodes {
		if m.otherCodes == nil {
			m.otherCodes = map[uint16]uint64{}
		}
		m.otherCodes[c] += n
	}
}

func (m *figures) close() {
	if m.Requests == 0 {
		return
	}
	m.Rate = float64(m.Requests)
	m.Throughput = float64(m.success)
	m.Duration = m.Latest.Sub(m.Earliest)
	wait := m.end.Sub(m.Latest)
	if secs := m.Duration.Seconds(); secs > 0 {
		m.Rate /= secs
		m.Throughput /= (m.Duration + wait).Seconds()
	}
	m.Success = float64(m.success) / float64(m.Requests)
}

// StatusCodes counts the results by status code, as Metrics.StatusCodes.
func (m *figures) StatusCodes() map[string]uint64 {
	codes := make(map[string]uint64, len(m.otherCodes)+4)
	if m.codes != nil {
		for c, n := range m.codes {
			if n > 0 {
				codes[strconv.Itoa(c)] = n
			}
		}
	}
	for c, n := range m.otherCodes {
		codes[strconv.Itoa(int(c))] = n
	}
	return codes
}
