// Package redacttest holds configuration lines with credentials, one or
// more for each word of package redact, for the tests of every place that
// hides them (the simulator's preload errors, push's EOS diffs). The
// credentials are made up; a test that finds one in its output must not
// print it.
package redacttest

// Line is a configuration line with credentials.
type Line struct {
	// Platform is where the line is from: "eos", "onyx", "nvue", or
	// "kept" for a word the lists had before with no line of the three
	// manuals found for it.
	Platform string
	// Text is the line.
	Text string
	// Shown is the part of Text left as it is: Text up to and including
	// its first credential word.
	Shown string
	// Secrets are the credentials in Text, each of which a redacted line
	// must not contain.
	Secrets []string
}

// Lines are the lines, written from the command syntax of the Arista EOS
// User Manual, the NVIDIA Onyx User Manual and the NVIDIA Cumulus Linux
// User Guide and NVUE Command Reference (package redact names the
// commands).
var Lines = []Line{
	{"eos", "username admin privilege 15 role network-admin secret sha512 $6$fAkEsAlT$Q1w2E3r4T5y6", "username admin privilege 15 role network-admin secret", []string{"$6$fAkEsAlT$Q1w2E3r4T5y6"}},
	{"eos", "enable password sha512 $6$eNaBlEsAlT$Zx9Cv8Bn7", "enable password", []string{"$6$eNaBlEsAlT$Zx9Cv8Bn7"}},
	{"eos", "snmp-server community Ro-Cmty-4471 ro", "snmp-server community", []string{"Ro-Cmty-4471"}},
	{"eos", "snmp-server user mon mongrp v3 auth sha Auth-Pass-901 priv aes Priv-Pass-902", "snmp-server user mon mongrp v3 auth", []string{"Auth-Pass-901", "Priv-Pass-902"}},
	{"eos", "snmp-server host 192.0.2.9 version 2c Trap-Cmty-3318", "snmp-server host 192.0.2.9 version 2c", []string{"Trap-Cmty-3318"}},
	{"eos", "tacacs-server key 7 070C285F4D06A1", "tacacs-server key", []string{"070C285F4D06A1"}},
	{"eos", "radius-server host 192.0.2.7 key 7 1107160B0A5A", "radius-server host 192.0.2.7 key", []string{"1107160B0A5A"}},
	{"eos", "   neighbor 192.0.2.1 password 7 Bgp-Hash-5520", "   neighbor 192.0.2.1 password", []string{"Bgp-Hash-5520"}},
	{"eos", "   ip ospf authentication-key 7 Ospf-Key-7781", "   ip ospf authentication-key", []string{"Ospf-Key-7781"}},
	{"eos", "   ip ospf message-digest-key 1 md5 7 Ospf-Md5-7782", "   ip ospf message-digest-key 1 md5", []string{"Ospf-Md5-7782"}},
	{"eos", "ntp authentication-key 1 sha1 7 Ntp-Key-6610", "ntp authentication-key", []string{"Ntp-Key-6610"}},
	{"eos", "   vrrp 1 peer authentication ietf-md5 key-string 7 Vrrp-Key-4402", "   vrrp 1 peer authentication ietf-md5 key-string", []string{"Vrrp-Key-4402"}},

	{"onyx", "username admin password 7 $6$oNyXsAlT$Hh1Jj2Kk3", "username admin password", []string{"$6$oNyXsAlT$Hh1Jj2Kk3"}},
	{"onyx", "snmp-server community Onyx-Cmty-2230 ro", "snmp-server community", []string{"Onyx-Cmty-2230"}},
	{"onyx", "snmp-server user mon v3 auth sha256 Onyx-Auth-2231 priv aes-128 Onyx-Priv-2232", "snmp-server user mon v3 auth", []string{"Onyx-Auth-2231", "Onyx-Priv-2232"}},
	{"onyx", "ldap bind-password Ldap-Bind-8812", "ldap bind-password", []string{"Ldap-Bind-8812"}},
	{"onyx", "tacacs-server key Tac-Key-8813", "tacacs-server key", []string{"Tac-Key-8813"}},
	{"onyx", "radius-server key Rad-Key-8814", "radius-server key", []string{"Rad-Key-8814"}},

	{"nvue", "nv set system aaa user admin password 'Plain-Pass-1201'", "nv set system aaa user admin password", []string{"Plain-Pass-1201"}},
	{"nvue", "nv set system aaa user admin hashed-password '$6$nVuEsAlT$Mm4Nn5Bb6'", "nv set system aaa user admin hashed-password", []string{"$6$nVuEsAlT$Mm4Nn5Bb6"}},
	{"nvue", "nv set system aaa tacacs server 5 secret Tacacs-Key-1301", "nv set system aaa tacacs server 5 secret", []string{"Tacacs-Key-1301"}},
	{"nvue", "nv set system aaa radius server 192.0.2.254 secret 'Radius-Key-1302'", "nv set system aaa radius server 192.0.2.254 secret", []string{"Radius-Key-1302"}},
	{"nvue", "nv set system aaa ldap bind-password Ldap-Pass-1303", "nv set system aaa ldap bind-password", []string{"Ldap-Pass-1303"}},
	{"nvue", "nv set service snmp-server readonly-community Nvue-Cmty-1304 access any", "nv set service snmp-server readonly-community", []string{"Nvue-Cmty-1304"}},
	{"nvue", "nv set service snmp-server readonly-community-v6 Nvue-Cmty6-1305 access any", "nv set service snmp-server readonly-community-v6", []string{"Nvue-Cmty6-1305"}},
	{"nvue", "nv set service snmp-server username mon auth-sha Sha-Pass-1306 encrypt-aes Aes-Pass-1307", "nv set service snmp-server username mon auth-sha", []string{"Sha-Pass-1306", "Aes-Pass-1307"}},
	{"nvue", "nv set service snmp-server username mon auth-md5 Md5-Pass-1308 encrypt-des Des-Pass-1309", "nv set service snmp-server username mon auth-md5", []string{"Md5-Pass-1308", "Des-Pass-1309"}},
	{"nvue", "nv set service snmp-server trap-destination 192.0.2.50 vrf mgmt community-password Trap-Pass-1310 version 2c", "nv set service snmp-server trap-destination 192.0.2.50 vrf mgmt community-password", []string{"Trap-Pass-1310"}},
	{"nvue", "nv set vrf default router bgp neighbor swp51 password Bgp-Pass-1311", "nv set vrf default router bgp neighbor swp51 password", []string{"Bgp-Pass-1311"}},
	{"nvue", "nv set interface swp51 router ospf authentication md5-key Ospf-Key-1312", "nv set interface swp51 router ospf authentication md5-key", []string{"Ospf-Key-1312"}},

	{"kept", "passphrase Kept-Phrase-9901", "passphrase", []string{"Kept-Phrase-9901"}},
	{"kept", "pre-shared-key Kept-Psk-9902", "pre-shared-key", []string{"Kept-Psk-9902"}},
	{"kept", "auth-key Kept-Auth-9903", "auth-key", []string{"Kept-Auth-9903"}},
	{"kept", "encrypted-password Kept-Hash-9904", "encrypted-password", []string{"Kept-Hash-9904"}},
}
