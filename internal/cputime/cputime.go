// Package cputime reads the CPU time the running process has used: the
// figure the server's processor governor goes by, and the one the
// benchmarks that report CPU an operation divide.
package cputime
