#!/usr/bin/env python3
"""GE graph dumps written the way GE prints them (ge_onnx_*.pbtxt / ge_proto_*.txt).

Usage: scripts/gen_ge_dump.py onnx|proto SIZE_MB OUT
       scripts/gen_ge_dump.py case NAME|all OUTDIR [SEED]

The first form writes a synthetic dump of about SIZE_MB megabytes, for memory/time measurements of
the ge_onnx / ge_proto readers (docs/formats.md, "Large dumps"). Never commit its output.

The second form writes small test networks as case folders OUTDIR/<name>/ holding the dump in both
forms (ge_onnx_<name>.pbtxt, ge_proto_<name>.txt, Const values included as DUMP_GE_GRAPH=1 does),
inputs/<Data name>.npy and expected/out<K>.npy computed with numpy, so that
`afc run OUTDIR/<name>/ge_onnx_<name>.pbtxt` checks the numbers (tests/fixtures/ge/cases holds
them; see gen_ge_cases.py for the networks).

The graph is a chain Data -> (Add, Relu, Cast, Mul ...)* -> NetOutput; every op carries the kind of
attributes real dumps carry (ids, names, tensor descriptions with shapes and dtypes, session
options), so the text per op is close to the real files' (~3 KB).
"""
import sys

TYPES = ["Add", "Relu", "Cast", "Mul", "Sub", "Exp", "RealDiv", "Sigmoid"]


def onnx_node(i, prev):
    name = f"block{i // 8}/op_{i}"
    t = "Data" if prev is None else TYPES[i % len(TYPES)]
    ins = [] if prev is None else [f"{prev}:0"]
    if t in ("Add", "Mul", "Sub", "RealDiv") and prev is not None:
        ins.append(f"{prev}:0")
    out = ["  node {"]
    for s in ins:
        out.append(f'    input: "{s}"')
    out.append(f'    output: "{name}:0"')
    out.append(f'    name: "{name}"')
    out.append(f'    op_type: "ge:{t}"')
    attrs = [("id", "i", str(i), "INT"), ("stream_id", "i", "0", "INT"),
             ("_op_no_tiling", "i", "0", "INT"), ("is_first_node", "i", "0", "INT")]
    for k in range(len(ins)):
        attrs += [(f"input_desc_dtype:{k}", "s", '"DT_FLOAT"', "STRING"),
                  (f"input_desc_layout:{k}", "s", '"ND"', "STRING"),
                  (f"input_desc_origin_layout:{k}", "s", '"ND"', "STRING"),
                  (f"input_desc_device_type:{k}", "s", '"NPU"', "STRING")]
    attrs += [("output_desc_dtype:0", "s", '"DT_FLOAT"', "STRING"),
              ("output_desc_layout:0", "s", '"ND"', "STRING"),
              ("output_desc_origin_layout:0", "s", '"ND"', "STRING"),
              ("output_desc_device_type:0", "s", '"NPU"', "STRING"),
              ("_input_name_key", "strings", '"x1"', "STRINGS"),
              ("_input_name_value", "ints", "0", "INTS"),
              ("src_name", "strings", f'"{prev or ""}"', "STRINGS"),
              ("dst_name", "strings", f'"block{(i + 1) // 8}/op_{i + 1}"', "STRINGS")]
    for opt in range(12):
        attrs.append((f"_session_option_{opt}", "s", f'"value_{opt}_of_a_session_option"', "STRING"))
    for key, field, value, typ in attrs:
        out.append("    attribute {")
        out.append(f'      name: "{key}"')
        out.append(f"      {field}: {value}")
        out.append(f"      type: {typ}")
        out.append("    }")
    for k in range(len(ins)):
        out.append("    attribute {")
        out.append(f'      name: "input_desc_shape:{k}"')
        out.append("      ints: 192\n      ints: 128")
        out.append("      type: INTS")
        out.append("    }")
    out.append("    attribute {")
    out.append('      name: "output_desc_shape:0"')
    out.append("      ints: 192\n      ints: 128")
    out.append("      type: INTS")
    out.append("    }")
    out.append("  }")
    return name, "\n".join(out) + "\n"


def proto_op(i, prev):
    name = f"block{i // 8}/op_{i}"
    t = "Data" if prev is None else TYPES[i % len(TYPES)]
    ins = [] if prev is None else [f"{prev}:0"]
    if t in ("Add", "Mul", "Sub", "RealDiv") and prev is not None:
        ins.append(f"{prev}:0")
    out = ["  op {", f'    name: "{name}"', f'    type: "{t}"']
    for s in ins:
        out.append(f'    input: "{s}"')
    attrs = [("_op_no_tiling", "b: false"), ("is_first_node", "b: false")]
    for opt in range(14):
        attrs.append((f"_session_option_{opt}", f's: "value_{opt}_of_a_session_option"'))
    for key, value in attrs:
        out.append(f'    attr {{\n      key: "{key}"\n      value {{\n        {value}\n      }}\n    }}')
    out.append("    has_out_attr: true")
    out.append(f"    id: {i}")
    out.append("    stream_id: 0")
    if prev:
        out.append(f'    src_name: "{prev}"\n    src_index: 0')
    desc = ('dtype: DT_FLOAT\n      shape {\n        dim: 192\n        dim: 128\n      }\n'
            '      layout: "ND"\n      attr {\n        key: "origin_format"\n        value {\n'
            '          s: "ND"\n        }\n      }\n      has_out_attr: true\n      size: 98304\n'
            '      device_type: "NPU"\n      real_dim_cnt: 2')
    for _ in ins:
        out.append(f"    input_desc {{\n      {desc}\n    }}")
    out.append(f"    output_desc {{\n      {desc}\n    }}")
    out.append("  }")
    return name, "\n".join(out) + "\n"


def main():
    if len(sys.argv) in (4, 5) and sys.argv[1] == "case":
        sys.path.insert(0, __import__("os").path.dirname(__file__))
        import gen_ge_cases
        gen_ge_cases.write_cases(sys.argv[2], sys.argv[3],
                                 int(sys.argv[4]) if len(sys.argv) == 5 else 0)
        return
    if len(sys.argv) != 4 or sys.argv[1] not in ("onnx", "proto"):
        sys.exit(__doc__)
    fmt, size, path = sys.argv[1], int(float(sys.argv[2]) * 1e6), sys.argv[3]
    node = onnx_node if fmt == "onnx" else proto_op
    written = 0
    with open(path, "w") as f:
        head = 'ir_version: 6\nproducer_name: "GE"\ngraph {\n' if fmt == "onnx" else \
            'graph {\n  name: "synthetic_graph"\n'
        f.write(head)
        written += len(head)
        prev = None
        i = 0
        while written < size:
            prev, text = node(i, prev)
            f.write(text)
            written += len(text)
            i += 1
        if fmt == "onnx":
            tail = ('  node {\n    input: "%s:0"\n    name: "output"\n    op_type: "ge:NetOutput"\n'
                    '  }\n  name: "synthetic_graph"\n}\n' % prev)
        else:
            tail = '  op {\n    name: "output"\n    type: "NetOutput"\n    input: "%s:0"\n  }\n}\n' % prev
        f.write(tail)
    print(f"{path}: {i + 1} ops, {written + len(tail)} bytes")


if __name__ == "__main__":
    main()
