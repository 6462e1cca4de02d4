// Package v2versioning holds the conformance specs of API v2 beside v3
// (api-v2.md, Versioning: version 2 stays available): where both documents
// describe the same thing, both versions must show the same state.
package v2versioning
