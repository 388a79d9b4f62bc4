# Mistake: a Windows host's NIC has an IPv4 /32 only and the leaf's IPv6
# link-local address as its gateway (RFC 5549, as on a BGP-unnumbered
# link). Linux and FreeBSD route IPv4 via an IPv6 next hop; Windows
# documents no such route (New-NetRoute), so it is refused at the gateway.
fabric "bad" {}

qos {
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    mode  = "routed"
  }
}

host "ws1" {
  os         = "windows"
  os_version = "2022"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "Ethernet 2"
    addresses = ["10.9.0.1/32"]
    gateway   = "fe80::1"
  }
}

link {
  a      = "leaf1:swp1"
  b      = "ws1:roce0"
  length = 3
}
