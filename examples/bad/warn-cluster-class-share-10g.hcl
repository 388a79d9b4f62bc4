# Mistake: the cluster heartbeat class has 1 % of the bandwidth, but the
# node's NIC runs at 10 Gb/s, where Microsoft's cluster traffic class
# reserves 2 %: 100 Mb/s for heartbeats beside SMB Direct at line rate.
fabric "bad" {}

qos {
  profile = "nvidia-roce"

  class "default" {
    bandwidth = 49
  }

  class "cluster" {
    priority  = 7
    dscp      = [56, 57, 58, 59, 60, 61, 62, 63]
    bandwidth = 1
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "10G"
    vlans = [100]
    trust = "pcp"
  }
}

host "hci1" {
  os            = "windows"
  cluster_class = "cluster"

  nic "roce0" {
    model     = "ConnectX-4 Lx"
    interface = "SLOT 3 Port 1"
    vlan      = 100
    trust     = "pcp"
    addresses = ["10.0.0.1/24"]
  }
}

link {
  a      = "leaf1:swp1"
  b      = "hci1:roce0"
  length = 3
}
