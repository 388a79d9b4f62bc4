# Mistake: the uplinks carry VLAN 200, not the hosts' VLAN 100, so the
# hosts of subnet 10.0.0.0/24 on leaf1 and leaf2 have no L2 path between
# them (each link's two ends agree, so only the fabric-wide check sees it).
fabric "bad" {}

qos {
  profile = "nvidia-roce"
  headroom { lossless_mtu = 4096 } # the RoCE path MTU of MTU 9000 hosts
}

vlan "rdma" {
  id = 100
}

vlan "storage" {
  id = 200
}

switch "spine1" {
  platform   = "onyx"
  os_version = "3.9.1014"
  model      = "SN2700"

  port "1/1-1/2" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [200]
    trust = "dscp"
  }
}

switch "leaf1" {
  platform   = "onyx"
  os_version = "3.9.1014"
  model      = "SN2700"

  port "1/1" {
    speed = "100G"
    mtu   = 9216
    mode  = "access"
    vlans = [100]
    trust = "dscp"
  }

  port "1/32" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [200]
    trust = "dscp"
  }
}

switch "leaf2" {
  platform   = "onyx"
  os_version = "3.9.1014"
  model      = "SN2700"

  port "1/1" {
    speed = "100G"
    mtu   = 9216
    mode  = "access"
    vlans = [100]
    trust = "dscp"
  }

  port "1/32" {
    speed = "100G"
    mtu   = 9216
    mode  = "trunk"
    vlans = [200]
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
    addresses = ["10.0.0.2/24"]
  }
}

link {
  a      = "leaf1:1/1"
  b      = "gpu1:roce0"
  length = 3
}

link {
  a      = "leaf2:1/1"
  b      = "gpu2:roce0"
  length = 3
}

link {
  a      = "leaf1:1/32"
  b      = "spine1:1/1"
  length = 10
}

link {
  a      = "leaf2:1/32"
  b      = "spine1:1/2"
  length = 10
}
