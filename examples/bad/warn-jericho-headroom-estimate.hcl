# Mistake (a warning): 96 ports at 100G with two lossless classes on a
# 7280CR3-96, whose two Jericho2 chips have 16 MB on chip each. EOS sizes
# the headroom itself there, so fabricc configures none; its estimate
# (192 lossless priority groups at the 300 m planning length) does not
# fit the on-chip buffer, and fabricc says so instead of refusing.
fabric "bad" {
  accept "pfc-port-without-a-cable-length" {
    reason = "the uncabled ports make the headroom; their length is not the point here"
  }
  accept "ecn-minimum-above-dcqcn-bound" {
    reason = "the DCQCN bound follows the same estimate; not the point here"
  }
}

qos {
  profile    = "nvidia-roce"
  roce_class = "roce"
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
  platform   = "eos"
  model      = "7280CR3-96"
  os_version = "4.32.2F"
  port "Ethernet1/1-96/1" {
    speed = "100G"
    mtu   = 9214
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
  a      = "sw:Ethernet1/1"
  b      = "node1:roce0"
  length = 3
}
