class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[16, 32]", arg1_1: "f32[32, 24]", arg2_1: "f32[24]"):
        mm: "f32[16, 24]" = torch.ops.aten.mm.default(arg0_1, arg1_1)
        add: "f32[16, 24]" = torch.ops.aten.add.Tensor(mm, arg2_1)
        relu: "f32[16, 24]" = torch.ops.aten.relu.default(add)
        return (relu,)
