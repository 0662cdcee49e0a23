moved {
  from = terraform_data.a
}

import {
  id = "x"
}

removed {
  from = "terraform_data.b"
}

resource "terraform_data" "a" {}
