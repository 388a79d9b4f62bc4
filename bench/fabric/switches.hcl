# Leaves: 48 x 25G host ports in the rack VLAN, two 100G routed uplinks
# (ports 49 and 50), one to each spine of the pod.
dynamic "switch" {
  for_each = local.leaves
  iterator = leaf
  labels   = [leaf.key]
  content {
    platform   = leaf.value.platform
    model      = leaf.value.model
    os_version = leaf.value.os

    dynamic "port" {
      for_each = range(1, 49)
      labels   = [format(leaf.value.host_port, port.value)]
      content {
        speed = "25G"
        mtu   = leaf.value.mtu
        mode  = "access"
        vlans = [100]
      }
    }

    dynamic "port" {
      for_each = range(local.spines_per_pod)
      labels   = [format(leaf.value.uplink, 49 + port.value)]
      content {
        speed = "100G"
        mtu   = 9214 # equal on both ends: the EOS leaves' largest
        mode  = "routed"
      }
    }
  }
}

# Spines: SN4600C, ports 1-62 down to the pod's leaves, 63-64 up to the
# super-spines of their plane.
dynamic "switch" {
  for_each = local.spines
  iterator = spine
  labels   = [spine.key]
  content {
    platform   = spine.value.platform
    model      = "SN4600C"
    os_version = spine.value.os

    dynamic "port" {
      for_each = range(1, local.pods > 1 ? 65 : 63)
      labels   = [format(spine.value.port, port.value)]
      content {
        speed = "100G"
        mtu   = 9214
        mode  = "routed"
      }
    }
  }
}

dynamic "switch" {
  for_each = local.superspine_names
  iterator = super
  labels   = [super.key]
  content {
    platform   = "cumulus"
    model      = "SN4600C"
    os_version = "5.9.2"

    dynamic "port" {
      for_each = range(1, 65)
      labels   = [format("swp%d", port.value)]
      content {
        speed = "100G"
        mtu   = 9214
        mode  = "routed"
      }
    }
  }
}
