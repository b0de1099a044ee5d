class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[17, 257]", arg1_1: "f32[17, 257]"):
        mul: "f32[17, 257]" = torch.ops.aten.mul.Tensor(arg0_1, arg1_1)
        sum_1: "f32[17]" = torch.ops.aten.sum.dim_IntList(mul, [-1])
        return (sum_1,)
