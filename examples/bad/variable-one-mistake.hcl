# Mistake: variable "port_mtu" is 9300, above the 9216 Cumulus Linux
# takes; the three port blocks that use it are one mistake, reported once.
fabric "bad" {}

variable "port_mtu" {
  type    = number
  default = 9300
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2700"

  port "swp1" {
    speed = "100G"
    mtu   = var.port_mtu
  }

  port "swp2" {
    speed = "100G"
    mtu   = var.port_mtu
  }

  port "swp3" {
    speed = "100G"
    mtu   = var.port_mtu
  }
}
