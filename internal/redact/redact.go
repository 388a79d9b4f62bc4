// Package redact knows which words of an EOS, Onyx or NVUE configuration
// line a credential follows: a password, a password hash, a shared key, an
// SNMP community. The switch simulator's preload errors and push's EOS
// session diffs both hide what follows such a word; each keeps its own
// output shape, and both read the one list here, so a word that is a
// secret in one place is a secret in the other.
package redact

import "strings"

// keywords are the words a credential follows, lower case. Where a word
// comes from (the manuals' command syntax):
//
//   - Arista EOS User Manual: `username NAME secret sha512 HASH`,
//     `enable password ...`, `snmp-server community NAME`, `snmp-server
//     user NAME GROUP v3 auth sha PASS priv aes PASS`, `snmp-server host
//     HOST version 2c COMMUNITY`, `tacacs-server key 7 ...`,
//     `radius-server key ...`, `neighbor ADDR password 7 ...` (BGP), `ip
//     ospf authentication-key ...`, `ip ospf message-digest-key 1 md5 ...`,
//     `ntp authentication-key 1 sha1 7 ...`, `vrrp 1 peer authentication
//     ietf-md5 key-string 7 ...`.
//   - NVIDIA Onyx User Manual: `username NAME password 7 HASH`,
//     `snmp-server community NAME`, `snmp-server user NAME v3 auth sha
//     PASS`, `tacacs-server key ...`, `radius-server key ...`, `ldap
//     bind-password ...`.
//   - NVIDIA Cumulus Linux User Guide and NVUE Command Reference: `nv set
//     system aaa user NAME password ...` and `hashed-password ...`, `nv
//     set system aaa tacacs server N secret ...`, `nv set system aaa
//     radius server HOST secret ...`, `nv set system aaa ldap secret ...`
//     (`bind-password` in older releases), `nv set service snmp-server
//     readonly-community NAME`, `... username NAME auth-sha PASS
//     encrypt-aes PASS`, `... trap-destination HOST community-password
//     ...`, `nv set vrf default router bgp neighbor PEER password ...`,
//     `nv set interface swp1 router ospf authentication md5-key ...`.
//
// A few more name key material on any of them: passphrase, auth-key,
// pre-shared-key, encrypted-password and the hash names a hash follows.
var keywords = map[string]bool{
	"secret": true, "password": true, "hashed-password": true, "encrypted-password": true,
	"bind-password": true, "community-password": true, "passphrase": true,
	"key": true, "auth-key": true, "authentication-key": true, "pre-shared-key": true,
	"key-string": true, "md5-key": true,
	"community": true, "readonly-community": true, "readonly-community-v6": true, "2c": true,
	"auth": true, "priv": true, "auth-md5": true, "auth-sha": true, "encrypt-aes": true, "encrypt-des": true,
	"md5": true, "sha1": true, "sha256": true, "sha512": true,
}

// Keyword reports whether a credential follows word w (any case) in a
// switch configuration line.
func Keyword(w string) bool {
	return keywords[strings.ToLower(w)]
}
