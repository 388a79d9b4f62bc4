# Mistake: the pools are planned so close to the buffer that NVUE's whole
# memory-percent cannot hold them. 64 ports at 100G with two lossless
# classes, planned for 850 m cables, leave 987,632 bytes of the
# SN4600C's 60,817,392 shared; the ingress lossy pool's 655,360 bytes of
# reservations then get 1 % (608,173 bytes).
fabric "bad" {
  accept "pfc-port-without-a-cable-length" {
    reason = "the uncabled ports make the headroom; their length is not the point here"
  }
}

qos {
  profile    = "nvidia-roce"
  roce_class = "roce"
  headroom {
    planning_length = 850
  }
  class "default" {
    bandwidth = 30
  }
  class "storage" {
    priority  = 4
    dscp      = [32, 33, 34, 35, 36, 37, 38, 39]
    lossless  = true
    bandwidth = 20
    ecn {
      min = 150000
      max = 1500000
    }
  }
}

vlan "rdma" {
  id = 10
}

switch "sw" {
  platform   = "cumulus"
  model      = "SN4600C"
  os_version = "5.9.2"
  port "swp1-64" {
    speed = "100G"
    mtu   = 9216
    mode  = "access"
    vlans = [10]
  }
}

host "node1" {
  os = "linux"
  nic "roce0" {
    model     = "ConnectX-6 Dx"
    driver    = "mlnx_ofed"
    interface = "ens1f0np0"
    speed     = "100G"
    mtu       = 9000
    addresses = ["10.0.10.11/24"]
  }
}

link {
  a      = "sw:swp1"
  b      = "node1:roce0"
  length = 3
}
