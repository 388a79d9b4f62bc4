# Mistake: cluster_class names the RoCE class. PFC would pause the failover
# cluster's heartbeats behind storage traffic, and a late heartbeat evicts the node.
fabric "bad" {}

qos {
  profile = "nvidia-roce"

  class "default" {
    bandwidth = 48
  }

  class "cluster" {
    priority  = 7
    dscp      = [56, 57, 58, 59, 60, 61, 62, 63]
    bandwidth = 2
  }
}

vlan "rdma" {
  id = 100
}

switch "leaf1" {
  platform = "cumulus"
  model    = "SN2410"

  port "swp1" {
    speed = "25G"
    vlans = [100]
    trust = "pcp"
  }
}

host "hci1" {
  os            = "windows"
  cluster_class = "roce"

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
