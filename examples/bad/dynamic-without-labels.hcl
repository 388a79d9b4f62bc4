# Mistake: a dynamic "switch" block without labels. Each switch it makes
# needs its name: labels = [format("leaf%d", switch.value)].
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

dynamic "switch" {
  for_each = range(1, 3)
  content {
    platform = "cumulus"
    model    = "SN2700"

    port "swp1" {
      speed = "100G"
      mode  = "routed"
    }
  }
}
