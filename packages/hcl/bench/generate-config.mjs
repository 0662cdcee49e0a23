// A large generated Terraform configuration in both syntaxes: `resources` resources with
// references, conditionals, for expressions, heredocs, templates and function calls, as
// CDK for Terraform and hand-written configurations contain them.

/** The native-syntax (`.tf`) text. */
export function nativeConfig(resources) {
  const out = ['variable "env" {\n  default = "prod"\n}\n\n'];
  for (let i = 0; i < resources; i++) {
    out.push(`resource "aws_instance" "web_${i}" {
  ami           = var.ami
  instance_type = ${i} % 2 == 0 ? "t3.micro" : "t3.small"
  subnet_id     = aws_subnet.main[${i % 8}].id
  count         = length(var.zones)
  tags = {
    Name  = "web-${i}-\${var.env}"
    Index = ${i}
    Team  = upper("team-${i % 17}")
  }
  security_groups = [for s in var.sgs : "\${s}-${i}" if s != ""]
  user_data       = <<-EOT
    #!/bin/bash
    echo ${i} > /tmp/index
    echo \${var.env} >> /tmp/index
  EOT
  depends_on = [aws_vpc.main]

  lifecycle {
    ignore_changes = [tags["Team"]]
  }
}

`);
  }
  return out.join("");
}

/** The same configuration in JSON syntax (`.tf.json`), as cdktf writes it. */
export function jsonConfig(resources) {
  const instances = {};
  for (let i = 0; i < resources; i++) {
    instances[`web_${i}`] = {
      ami: "${var.ami}",
      instance_type: `\${${i} % 2 == 0 ? "t3.micro" : "t3.small"}`,
      subnet_id: `\${aws_subnet.main[${i % 8}].id}`,
      count: "${length(var.zones)}",
      tags: { Name: `web-${i}-\${var.env}`, Index: i, Team: `\${upper("team-${i % 17}")}` },
      security_groups: `\${[for s in var.sgs : "\${s}-${i}" if s != ""]}`,
      user_data: `#!/bin/bash\necho ${i} > /tmp/index\necho \${var.env} >> /tmp/index\n`,
      depends_on: ["aws_vpc.main"],
      lifecycle: { ignore_changes: ['tags["Team"]'] },
      "//": "generated",
    };
  }
  return JSON.stringify({ variable: { env: { default: "prod" } }, resource: { aws_instance: instances } }, null, 2);
}
