class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[31, 97]", arg1_1: "f32[31, 97]"):
        add: "f32[31, 97]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        ge: "b8[31, 97]" = torch.ops.aten.ge.Scalar(add, 0.5)
        return (ge,)
