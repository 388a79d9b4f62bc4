//go:build !windows

package inventory

// defaultAgentSocket: on Unix the agent's socket is only known from
// SSH_AUTH_SOCK.
const defaultAgentSocket = ""
