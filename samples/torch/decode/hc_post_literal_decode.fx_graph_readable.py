class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[128, 4096]", arg1_1: "bf16[128, 4, 4096]", arg2_1: "f32[128, 4]", arg3_1: "f32[128, 4, 4]"):
        unsqueeze: "f32[128, 4, 4, 1]" = torch.ops.aten.unsqueeze.default(arg3_1, -1)
        _to_copy: "f32[128, 4, 4096]" = torch.ops.aten._to_copy.default(arg1_1, dtype = torch.float32)
        unsqueeze_1: "f32[128, 4, 1, 4096]" = torch.ops.aten.unsqueeze.default(_to_copy, -2)
        mul: "f32[128, 4, 4, 4096]" = torch.ops.aten.mul.Tensor(unsqueeze, unsqueeze_1)
        sum_1: "f32[128, 4, 4096]" = torch.ops.aten.sum.dim_IntList(mul, [2])
        unsqueeze_2: "f32[128, 4, 1]" = torch.ops.aten.unsqueeze.default(arg2_1, -1)
        _to_copy_1: "f32[128, 4096]" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.float32)
        unsqueeze_3: "f32[128, 1, 4096]" = torch.ops.aten.unsqueeze.default(_to_copy_1, 1)
        mul_1: "f32[128, 4, 4096]" = torch.ops.aten.mul.Tensor(unsqueeze_2, unsqueeze_3)
        add: "f32[128, 4, 4096]" = torch.ops.aten.add.Tensor(mul_1, sum_1)
        _to_copy_2: "bf16[128, 4, 4096]" = torch.ops.aten._to_copy.default(add, dtype = torch.bfloat16)
        return (_to_copy_2,)
