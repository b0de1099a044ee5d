class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[192, 128]", arg1_1: "f16[128]"):
        _to_copy: "f32[192, 128]" = torch.ops.aten._to_copy.default(arg0_1, dtype = torch.float32)
        abs_1: "f32[192, 128]" = torch.ops.aten.abs.default(_to_copy)
        _to_copy_1: "f32[128]" = torch.ops.aten._to_copy.default(arg1_1, dtype = torch.float32)
        add: "f32[192, 128]" = torch.ops.aten.add.Tensor(abs_1, _to_copy_1)
        relu: "f32[192, 128]" = torch.ops.aten.relu.default(add)
        _to_copy_2: "f16[192, 128]" = torch.ops.aten._to_copy.default(relu, dtype = torch.float16)
        return (_to_copy_2,)
