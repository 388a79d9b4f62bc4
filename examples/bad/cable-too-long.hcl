# Mistake: twelve 100G lossless links to one switch are 10 km long; planned for 10 km, their PFC headroom does not fit the SN2700's 16 MB buffer.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform   = "onyx"
  os_version = "3.9.1014"
  model      = "SN2700"

  port "1/1-1/2" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [100]
    trust = "dscp"
  }

  port "1/3-1/14" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [100]
    trust = "dscp"
  }
}

switch "spine1" {
  platform   = "onyx"
  os_version = "3.9.1014"
  model      = "SN4700" # Spectrum-3, 64 MB: room for its twelve 10 km ports

  port "1/3-1/14" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [100]
    trust = "dscp"
  }
}

host "gpu1" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "100G"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.1/24"]
  }
}

host "gpu2" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-5"
    interface = "ens1f0"
    speed     = "100G"
    mtu       = 9000
    vlan      = 100
    addresses = ["10.0.0.2/24"]
  }
}

link {
  a      = "leaf1:1/1"
  b      = "gpu1:roce0"
  length = 3
}

link {
  a      = "leaf1:1/2"
  b      = "gpu2:roce0"
  length = 3
}

dynamic "link" {
  for_each = range(3, 15)
  content {
    a      = "leaf1:1/${link.value}"
    b      = "spine1:1/${link.value}"
    length = 10000
    cable  = "fibre"
  }
}
