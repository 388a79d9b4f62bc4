dynamic "host" {
  for_each = local.gpu_hosts
  labels   = [host.key]
  content {
    os = "linux"

    dynamic "nic" {
      for_each = [0, 1]
      labels   = [format("nic%d", nic.value)]
      content {
        model     = "ConnectX-7"
        interface = format("ens%df0np0", nic.value + 1)
        mtu       = 9216
        vlan      = 10 + nic.value
        addresses = [format("10.%d.0.%d/24", nic.value, 10 + host.value)]
      }
    }
  }
}

host "gpu16" {
  os = "linux"

  nic "nic0" {
    model     = "ConnectX-7"
    interface = "ens1f0np0"
    mtu       = 9000
    vlan      = 10
    addresses = ["10.0.0.25/24"]
  }

  nic "nic1" {
    model     = "ConnectX-7"
    interface = "ens2f0np0"
    mtu       = 9000
    vlan      = 11
    addresses = ["10.0.0.126/24"]
  }
}

host "stor01" {
  os = "linux"

  nic "roce0" {
    model     = "ConnectX-6 Dx"
    interface = "ens1f0np0"
    mtu       = 9000
    vlan      = 10
    addresses = ["10.0.0.200/24"]
  }
}
