# Mistake: for_each written inside a switch block, as on a Terraform
# resource. A block is one device; a dynamic "switch" block repeats it.
fabric "bad" {}

qos {
  profile = "nvidia-roce"
}

switch "leaf" {
  for_each = toset(["leaf1", "leaf2"])
  platform = "cumulus"
  model    = "SN2700"
}
