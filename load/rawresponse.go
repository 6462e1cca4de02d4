package load

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/textproto"
	"strconv"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// chunked reads a chunked body and then its trailer (ignored), up to the
// empty line that ends the answer.
type chunkedBody struct {
	r    io.Reader
	br   *bufio.Reader
	done bool
}

func (c *chunkedBody) Read(p []byte) (int, error) {
	if c.done {
		return 0, io.EOF
	}
	n, err := c.r.Read(p)
	if err == io.EOF {
		c.done = true
		for {
			l, lerr := c.br.ReadSlice('\n')
			if lerr != nil {
				return n, fmt.Errorf("chunked trailer: %w", lerr)
			}
			if len(bytes.TrimRight(l, "\r\n")) == 0 {
				break
			}
		}
	}
	return n, err
}

// answer is what the engine needs of an answer beyond its result.
type answer struct {
	close    bool   // the connection cannot serve another request
	location string // a redirect's target; empty unless the answer is a redirect
}

// readAnswer reads an HTTP/1.x answer to a method request from br, to its
// end, into r as Vegeta records it: the status code; for a failure (a code
// outside 200-399) the status as Error, the header and the body's first
// maxErrorBody bytes; BytesIn, the body bytes kept by that bound. A
// successful answer is checked and read without allocating: the results
// file keeps neither its header nor its body.
func readAnswer(br *bufio.Reader, method string, r *vegeta.Result) (answer, error) {
	var a answer
	line, err := br.ReadSlice('\n')
	if err != nil {
		return a, err
	}
	line = bytes.TrimRight(line, "\r\n")
	proto, rest, ok := bytes.Cut(line, []byte{' '})
	if !ok || len(rest) < 3 || len(proto) != 8 || !bytes.HasPrefix(proto, []byte("HTTP/1.")) || (proto[7] != '0' && proto[7] != '1') {
		return a, fmt.Errorf("malformed status line %q", line)
	}
	code := 0
	for _, c := range rest[:3] {
		if c < '0' || c > '9' {
			return a, fmt.Errorf("malformed status code in %q", line)
		}
		code = code*10 + int(c-'0')
	}
	if code < 100 || (len(rest) > 3 && rest[3] != ' ') {
		return a, fmt.Errorf("malformed status code in %q", line)
	}
	failed := code < 200 || code >= 400
	redirect := code == 301 || code == 302 || code == 303 || code == 307 || code == 308
	if failed {
		r.Error = string(rest)
		r.Headers = make(http.Header, 4)
	}
	http10 := proto[7] == '0'
	a.close = http10
	length, chunked := int64(-1), false
	for {
		l, err := br.ReadSlice('\n')
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				return a, errors.New("header line too long")
			}
			return a, err
		}
		l = bytes.TrimRight(l, "\r\n")
		if len(l) == 0 {
			break
		}
		k, v, ok := bytes.Cut(l, []byte{':'})
		if !ok || len(k) == 0 {
			return a, fmt.Errorf("malformed header line %q", l)
		}
		v = bytes.TrimSpace(v)
		switch {
		case bytes.EqualFold(k, []byte("Content-Length")):
			n, err := strconv.ParseInt(string(v), 10, 64) // no allocation: the conversion does not escape
			if err != nil || n < 0 {
				return a, fmt.Errorf("malformed Content-Length %q", v)
			}
			length = n
		case bytes.EqualFold(k, []byte("Transfer-Encoding")):
			if !bytes.EqualFold(v, []byte("chunked")) {
				return a, fmt.Errorf("unsupported transfer encoding %q", v)
			}
			chunked = true
		case bytes.EqualFold(k, []byte("Connection")):
			if bytes.EqualFold(v, []byte("close")) {
				a.close = true
			} else if http10 && bytes.EqualFold(v, []byte("keep-alive")) {
				a.close = false
			}
		case redirect && bytes.EqualFold(k, []byte("Location")):
			a.location = string(v)
		}
		if failed {
			key := textproto.CanonicalMIMEHeaderKey(string(k))
			r.Headers[key] = append(r.Headers[key], string(v))
		}
	}
	r.Code = uint16(code)
	var body io.Reader
	switch {
	case method == http.MethodHead || code/100 == 1 || code == http.StatusNoContent || code == http.StatusNotModified:
		return a, nil
	case chunked:
		body = &chunkedBody{r: httputil.NewChunkedReader(br), br: br}
	case length >= 0:
		if !failed && a.location == "" {
			n, err := br.Discard(int(min(length, maxErrorBody)))
			if err == nil && length > maxErrorBody {
				_, err = br.Discard(int(length - maxErrorBody))
			}
			r.BytesIn = uint64(n)
			return a, err
		}
		body = io.LimitReader(br, length)
	default: // the body ends when the server closes the connection
		a.close = true
		body = br
	}
	// A failure keeps the start of its body; the rest is read and dropped
	// so that the connection is positioned at the next answer.
	kept, err := io.ReadAll(io.LimitReader(body, maxErrorBody))
	if err != nil {
		return a, err
	}
	r.BytesIn = uint64(len(kept))
	if failed {
		r.Body = kept
	}
	if _, err := io.Copy(io.Discard, body); err != nil {
		return a, err
	}
	return a, nil
}
