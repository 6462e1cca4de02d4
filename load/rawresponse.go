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
)

// readResponse reads an HTTP/1.x answer's status line and header from br,
// and gives it a body reading from br. It is net/http.ReadResponse for the
// answers a load run meets (Content-Length, chunked, or to the close),
// without textproto's general machinery: parsing the header was 12% of
// the generator's CPU at max rate, most of it in ReadMIMEHeader.
func readResponse(br *bufio.Reader, req *http.Request) (*http.Response, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	line = bytes.TrimRight(line, "\r\n")
	proto, rest, ok := bytes.Cut(line, []byte{' '})
	if !ok || len(rest) < 3 {
		return nil, fmt.Errorf("malformed status line %q", line)
	}
	major, minor, ok := http.ParseHTTPVersion(string(proto))
	if !ok {
		return nil, fmt.Errorf("malformed HTTP version %q", proto)
	}
	code, err := strconv.Atoi(string(rest[:3]))
	if err != nil || code < 100 {
		return nil, fmt.Errorf("malformed status code in %q", line)
	}
	resp := &http.Response{Status: string(rest), StatusCode: code, Proto: string(proto), ProtoMajor: major, ProtoMinor: minor,
		Header: make(http.Header, 4), Request: req, ContentLength: -1}
	for {
		l, err := br.ReadSlice('\n')
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				return nil, errors.New("header line too long")
			}
			return nil, err
		}
		l = bytes.TrimRight(l, "\r\n")
		if len(l) == 0 {
			break
		}
		k, v, ok := bytes.Cut(l, []byte{':'})
		if !ok || len(k) == 0 {
			return nil, fmt.Errorf("malformed header line %q", l)
		}
		key := textproto.CanonicalMIMEHeaderKey(string(k))
		resp.Header[key] = append(resp.Header[key], string(bytes.TrimSpace(v)))
	}
	chunked := false
	if te := resp.Header.Get("Transfer-Encoding"); te != "" {
		if !bytesEqualFold(te, "chunked") {
			return nil, fmt.Errorf("unsupported transfer encoding %q", te)
		}
		chunked = true
		resp.TransferEncoding = []string{"chunked"}
		resp.Header.Del("Transfer-Encoding")
	}
	if cl := resp.Header.Get("Content-Length"); cl != "" && !chunked {
		n, err := strconv.ParseInt(cl, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("malformed Content-Length %q", cl)
		}
		resp.ContentLength = n
	}
	conn := resp.Header.Get("Connection")
	resp.Close = bytesEqualFold(conn, "close") || (major == 1 && minor == 0 && !bytesEqualFold(conn, "keep-alive"))
	switch {
	case req.Method == http.MethodHead || code/100 == 1 || code == http.StatusNoContent || code == http.StatusNotModified:
		resp.Body, resp.ContentLength = http.NoBody, 0
	case chunked:
		resp.Body = &drainer{r: &chunkedBody{r: httputil.NewChunkedReader(br), br: br}}
	case resp.ContentLength >= 0:
		resp.Body = &drainer{r: io.LimitReader(br, resp.ContentLength)}
	default: // the body ends when the server closes the connection
		resp.Close = true
		resp.Body = &drainer{r: br}
	}
	return resp, nil
}

func bytesEqualFold(s, t string) bool { return bytes.EqualFold([]byte(s), []byte(t)) }

// drainer is a body whose Close reads what is left, so that the
// connection is positioned at the next answer.
type drainer struct{ r io.Reader }

func (d *drainer) Read(p []byte) (int, error) { return d.r.Read(p) }

func (d *drainer) Close() error {
	_, err := io.Copy(io.Discard, d.r)
	return err
}

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
