# Mistake: the Dell S5248F-ON runs Cumulus Linux only before 5.0, and
# fabricc configures Cumulus Linux 5.3 or later; no os_version fits both.
fabric "bad" {}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform   = "cumulus"
  model      = "S5248F-ON"
  os_version = "4.4.5"

  port "swp1" {
    speed = "25G"
    vlans = [100]
  }
}
