#!/usr/bin/env python3
"""Reads the structured allocator's TestAllocator table (k8s.io/dynamic-resource-allocation,
structured/internal/allocatortesting/allocator_testing.go) and prints its cases as data: the
objects each case builds, evaluated by a small reader of the Go expressions the table uses and a
re-statement of what its helpers build (their names, in FUNCS). Nothing of the file is executed.
A case the reader cannot evaluate is listed under "problems" with why.

  allocator-extract.py allocator_testing.go count-cases.py > cases.json
"""
import copy
import json
import re
import sys

import importlib.util

spec = importlib.util.spec_from_file_location("cc", sys.argv[2])
cc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cc)


class S(dict):
    """A Go struct value (its keys are Go field names)."""


class Unsupported(Exception):
    pass


# ---------------------------------------------------------------- parser
class P:
    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else ("eof", "")

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def accept(self, text):
        if self.peek()[1] == text:
            self.i += 1
            return True
        return False

    def expect(self, text):
        tok = self.next()
        if tok[1] != text:
            raise SyntaxError("want %r got %r at %d" % (text, tok, self.i))
        return tok

    def skip_semis(self):
        while self.peek()[1] == ";":
            self.i += 1

    # types
    def typ(self):
        tok = self.peek()
        if tok[1] == "[":
            self.next()
            self.expect("]")
            return ("slicetype", self.typ())
        if tok[1] == "map":
            self.next()
            self.expect("[")
            k = self.typ()
            self.expect("]")
            return ("maptype", k, self.typ())
        if tok[1] == "*":
            self.next()
            return ("ptrtype", self.typ())
        if tok[1] == "func":
            self.next()
            self.params()
            self.result_type()
            return ("functype",)
        name = self.next()[1]
        while self.peek()[1] == ".":
            self.next()
            name += "." + self.next()[1]
        if self.peek()[1] == "[" and self.peek(1)[1] != "]":
            # generic instantiation
            self.next()
            self.typ()
            while self.accept(","):
                self.typ()
            self.expect("]")
        return ("named", name)

    def params(self):
        self.expect("(")
        depth = 1
        while depth:
            t = self.next()[1]
            depth += {"(": 1, ")": -1}.get(t, 0)

    def result_type(self):
        if self.peek()[1] == "{":
            return None
        if self.peek()[1] == "(":
            self.params()
            return None
        return self.typ()

    def composite(self, typ):
        self.expect("{")
        elems = []
        while not self.accept("}"):
            self.skip_semis()
            if self.accept("}"):
                break
            if self.peek()[1] == "{":
                v = self.composite(None)
            else:
                v = self.expr()
            if self.accept(":"):
                key = v
                v = self.composite(None) if self.peek()[1] == "{" else self.expr()
                elems.append((key, v))
            else:
                elems.append((None, v))
            if not self.accept(","):
                self.skip_semis()
                self.expect("}")
                break
        return ("composite", typ, elems)

    BIN = [["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    def expr(self, level=0):
        if level == len(self.BIN):
            return self.unary()
        left = self.expr(level + 1)
        while self.peek()[1] in self.BIN[level]:
            op = self.next()[1]
            right = self.expr(level + 1)
            left = ("bin", op, left, right)
        return left

    def unary(self):
        t = self.peek()[1]
        if t in ("&", "*"):
            self.next()
            return self.unary()
        if t == "-":
            self.next()
            return ("neg", self.unary())
        if t == "!":
            self.next()
            return ("not", self.unary())
        return self.postfix(self.primary())

    def primary(self):
        kind, text = self.peek()
        if text == "(":
            self.next()
            e = self.expr()
            self.expect(")")
            return e
        if text in ("[", "map"):
            typ = self.typ()
            return self.composite(typ)
        if text == "func":
            self.next()
            self.params()
            self.result_type()
            body = self.block()
            return ("func", body)
        self.next()
        if kind == "str":
            if text.startswith("`"):
                return ("lit", text[1:-1])
            return ("lit", json.loads(text))
        if kind == "num":
            return ("lit", int(text))
        if kind == "rune":
            raise Unsupported("rune")
        if kind != "ident":
            raise SyntaxError("unexpected %r" % text)
        return ("ident", text)

    def postfix(self, e):
        while True:
            t = self.peek()[1]
            if t == ".":
                self.next()
                if self.peek()[1] == "(":
                    self.next()
                    self.typ()
                    self.expect(")")
                    continue
                e = ("sel", e, self.next()[1])
            elif t == "(":
                self.next()
                args = []
                while not self.accept(")"):
                    self.skip_semis()
                    if self.accept(")"):
                        break
                    if self.peek()[1] in ("[", "map") and e == ("ident", "new"):
                        args.append(("type", self.typ()))
                    else:
                        args.append(self.expr())
                    if self.accept("..."):
                        args[-1] = ("spread", args[-1])
                    if not self.accept(","):
                        self.skip_semis()
                        self.expect(")")
                        break
                e = ("call", e, args)
            elif t == "[":
                self.next()
                idx = self.expr()
                self.expect("]")
                e = ("index", e, idx)
            elif t == "{" and self.is_type(e):
                e = self.composite(e)
            else:
                return e

    @staticmethod
    def is_type(e):
        if e[0] == "ident":
            return e[1][0].isupper() or e[1] in ("wrapResourceClaim",)
        if e[0] == "sel" and e[1][0] == "ident":
            return e[1][1] in ("resourceapi", "v1", "metav1", "resource", "runtime", "apitypes")
        return False

    # statements
    def block(self):
        self.expect("{")
        stmts = []
        while True:
            self.skip_semis()
            if self.accept("}"):
                return stmts
            stmts.append(self.stmt())

    def stmt(self):
        t = self.peek()[1]
        if t == "return":
            self.next()
            if self.peek()[1] in (";", "}"):
                return ("return", None)
            return ("return", self.expr())
        if t == "for":
            self.next()
            return self.for_stmt()
        if t == "if":
            self.next()
            cond = self.expr()
            body = self.block()
            other = []
            if self.accept("else"):
                other = self.block() if self.peek()[1] == "{" else [self.stmt()]
            return ("if", cond, body, other)
        if t == "var":
            self.next()
            name = self.next()[1]
            typ = self.typ()
            val = None
            if self.accept("="):
                val = self.expr()
            return ("var", name, typ, val)
        return self.simple()

    def simple(self):
        lhs = [self.expr()]
        while self.accept(","):
            lhs.append(self.expr())
        t = self.peek()[1]
        if t in (":=", "=", "+=", "-="):
            self.next()
            if self.peek()[1] == "range":
                self.next()
                return ("range", lhs, self.expr())
            rhs = [self.expr()]
            while self.accept(","):
                rhs.append(self.expr())
            return ("assign", t, lhs, rhs)
        if t in ("++", "--") or (t == "+" and self.peek(1)[1] == "+"):
            self.next()
            if t == "+":
                self.next()
            return ("assign", "+=", lhs, [("lit", 1)])
        return ("expr", lhs[0])

    def for_stmt(self):
        # for init; cond; post {  |  for k, v := range x {
        init = self.simple()
        if init[0] == "range":
            return ("forrange", init[1], init[2], self.block())
        self.expect(";")
        cond = self.expr()
        self.expect(";")
        post = self.simple()
        return ("for", init, cond, post, self.block())


# ---------------------------------------------------------------- evaluation
class Return(Exception):
    def __init__(self, v):
        self.v = v


CONSTS = {
    "resourceapi.DeviceAllocationModeAll": "All",
    "resourceapi.DeviceAllocationModeExactCount": "ExactCount",
    "resourceapi.DeviceTaintEffectNone": "None",
    "resourceapi.DeviceTaintEffectNoSchedule": "NoSchedule",
    "resourceapi.DeviceTaintEffectNoExecute": "NoExecute",
    "resourceapi.DeviceTolerationOpExists": "Exists",
    "resourceapi.DeviceTolerationOpEqual": "Equal",
    "resourceapi.AllocationConfigSourceClass": "FromClass",
    "resourceapi.AllocationConfigSourceClaim": "FromClaim",
    "resourceapi.AllocationResultsMaxSize": 32,
    "resourceapi.DeviceConfigMaxSize": 32,
    "resourceapi.ResourceSliceMaxDevices": 128,
    "resourceapi.ResourceSliceMaxDevicesWithTaintsOrConsumesCounters": 64,
    "v1.NodeSelectorOpIn": "In",
    "v1.NodeSelectorOpNotIn": "NotIn",
    "resource.BinarySI": None,
    "resource.DecimalSI": None,
    "nil": None,
    "true": True,
    "false": False,
}


def path_of(e):
    if e[0] == "ident":
        return e[1]
    if e[0] == "sel":
        p = path_of(e[1])
        return p + "." + e[2] if p else None
    return None


class Env:
    def __init__(self, parent=None):
        self.vars = {}
        self.parent = parent

    def get(self, name):
        if name in self.vars:
            return self.vars[name]
        if self.parent:
            return self.parent.get(name)
        raise KeyError(name)

    def has(self, name):
        return name in self.vars or (self.parent is not None and self.parent.has(name))

    def set(self, name, v, declare=False):
        if declare or not self.has(name):
            self.vars[name] = v
            return
        e = self
        while name not in e.vars:
            e = e.parent
        e.vars[name] = v


def q(s):
    return str(s)


def ev(e, env):
    k = e[0]
    if k == "lit":
        return e[1]
    if k == "ident":
        n = e[1]
        if env.has(n):
            return env.get(n)
        if n in CONSTS:
            return CONSTS[n]
        if n in FUNCS:
            return FUNCS[n]
        raise Unsupported("identifier " + n)
    if k == "sel":
        p = path_of(e)
        if p in CONSTS:
            return CONSTS[p]
        if p in FUNCS:
            return FUNCS[p]
        base = ev(e[1], env)
        if isinstance(base, S) and "ObjectMeta" in base and e[2] in ("Name", "Namespace", "Labels"):
            base = base["ObjectMeta"]
        if isinstance(base, dict):
            if e[2] not in base:
                base[e[2]] = S()
            return base[e[2]]
        if hasattr(base, "method"):
            return base.method(e[2])
        raise Unsupported("field %s of %r" % (e[2], type(base)))
    if k == "index":
        base = ev(e[1], env)
        return base[ev(e[2], env)]
    if k == "neg":
        return -ev(e[1], env)
    if k == "not":
        return not ev(e[1], env)
    if k == "bin":
        a, b = ev(e[2], env), ev(e[3], env)
        return {
            "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a // b,
            "%": lambda: a % b, "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b,
            ">=": lambda: a >= b, "==": lambda: a == b, "!=": lambda: a != b,
            "&&": lambda: a and b, "||": lambda: a or b,
        }[e[1]]()
    if k == "call":
        fn = e[1]
        if fn[0] == "sel" and path_of(fn) not in FUNCS:
            recv = ev(fn[1], env)
            args = []
            for a in e[2]:
                args.extend(ev(a[1], env) or []) if a[0] == "spread" else args.append(ev(a, env))
            return method(recv, fn[2], args)
        if fn == ("ident", "new"):
            return S()
        if fn == ("ident", "append"):
            lst = ev(e[2][0], env) or []
            rest = []
            for a in e[2][1:]:
                if a[0] == "spread":
                    rest.extend(ev(a[1], env) or [])
                else:
                    rest.append(ev(a, env))
            return list(lst) + rest
        if fn[0] == "func":
            return run_func(fn[1], env)
        f = ev(fn, env)
        args = []
        for a in e[2]:
            if a[0] == "spread":
                args.extend(ev(a[1], env) or [])
            else:
                args.append(ev(a, env))
        if isinstance(f, str) or f is None or isinstance(f, int):
            raise Unsupported("call of %r" % (fn,))
        return f(*args)
    if k == "composite":
        return composite(e, env)
    if k == "func":
        return ("closure", e[1], env)
    raise Unsupported(k)


def composite(e, env):
    typ, elems = e[1], e[2]
    if typ is not None and typ[0] == "slicetype":
        return [composite(v, env) if v[0] == "composite" and v[1] is None else ev(v, env) for _, v in elems]
    if typ is not None and typ[0] == "maptype":
        out = {}
        for key, v in elems:
            kv = ev(key, env)
            out[kv] = composite(v, env) if v[0] == "composite" and v[1] is None else ev(v, env)
        return out
    # struct
    if elems and elems[0][0] is None:
        return [composite(v, env) if v[0] == "composite" and v[1] is None else ev(v, env) for _, v in elems]
    out = S()
    for key, v in elems:
        name = key[1] if key[0] == "ident" else ev(key, env)
        if key[0] == "lit":
            # untyped struct elements of a map
            if not isinstance(out, dict) or type(out) is S:
                out = {} if not out else out
            out[name] = composite(v, env) if v[0] == "composite" and v[1] is None else ev(v, env)
            continue
        out[name] = composite(v, env) if v[0] == "composite" and v[1] is None else ev(v, env)
    if typ is not None:
        tn = path_of(typ) if typ[0] != "named" else typ[1]
        if tn and tn.endswith("Features"):
            return ("features", dict(out))
    return out


def run_func(body, env):
    local = Env(env)
    try:
        run_block(body, local)
    except Return as r:
        return r.v
    return None


def run_block(stmts, env):
    for s in stmts:
        run_stmt(s, env)


def assign_to(target, v, env, declare):
    if target[0] == "ident":
        if target[1] == "_":
            return
        env.set(target[1], v, declare)
        return
    if target[0] == "sel":
        base = ev(target[1], env)
        if isinstance(base, S) and "ObjectMeta" in base and target[2] in ("Name", "Namespace", "Labels"):
            base = base["ObjectMeta"]
        base[target[2]] = v
        return
    if target[0] == "index":
        base = ev(target[1], env)
        base[ev(target[2], env)] = v
        return
    raise Unsupported("assign to " + target[0])


def run_stmt(s, env):
    k = s[0]
    if k == "return":
        raise Return(ev(s[1], env) if s[1] else None)
    if k == "expr":
        e = s[1]
        if e[0] == "call" and path_of(e[1]) in ("t.Fatalf", "t.Logf"):
            return
        ev(e, env)
        return
    if k == "var":
        env.set(s[1], ev(s[3], env) if s[3] else None, True)
        return
    if k == "assign":
        op, lhs, rhs = s[1], s[2], s[3]
        vals = [ev(r, env) for r in rhs]
        if op in ("+=", "-="):
            cur = ev(lhs[0], env)
            if isinstance(cur, S) and not cur:
                cur = 0
            vals = [cur + vals[0] if op == "+=" else cur - vals[0]]
        for t, v in zip(lhs, vals):
            assign_to(t, v, env, op == ":=")
        return
    if k == "for":
        local = Env(env)
        run_stmt(s[1], local)
        while ev(s[2], local):
            run_block(s[4], Env(local))
            run_stmt(s[3], local)
        return
    if k == "forrange":
        coll = ev(s[2], env)
        items = list(coll.items()) if isinstance(coll, dict) else list(enumerate(coll))
        for key, val in items:
            local = Env(env)
            names = s[1]
            assign_to(names[0], key, local, True)
            if len(names) > 1:
                assign_to(names[1], val, local, True)
            run_block(s[3], local)
        return
    if k == "if":
        run_block(s[2] if ev(s[1], env) else s[3], Env(env))
        return
    raise Unsupported("statement " + k)


def sprintf(fmt, *args):
    out = re.sub(r"%[vsd]", "{}", fmt.replace("{", "{{").replace("}", "}}"))
    return out.format(*[("true" if a is True else "false" if a is False else a) for a in args])


# ---------------------------------------------------------------- helpers (the test file's vocabulary)
def dc(x):
    return copy.deepcopy(x)


def node(name, region):
    return S(ObjectMeta=S(Name=name, Labels={"region": region, "planet": "earth"}))


def cel_sel(expr):
    return S(CEL=S(Expression=expr))


def klass(name, driver):
    return S(ObjectMeta=S(Name=name), Spec=S(Selectors=[cel_sel('device.driver == "%s"' % driver)]))


def class_multi(name, driver, multi):
    return S(ObjectMeta=S(Name=name), Spec=S(Selectors=[cel_sel(
        'device.driver == "%s" && device.allowMultipleAllocations == %s' % (driver, "true" if multi else "false"))]))


def device_configuration(driver, attribute):
    return S(Opaque=S(Driver=driver, Parameters=S(Raw={attribute: attribute + "Value"})))


def class_with_config(name, driver, attribute):
    c = klass(name, driver)
    c["Spec"]["Config"] = [device_configuration(driver, attribute)]
    return c


def claim_with_requests(name, constraints, *requests):
    return S(ObjectMeta=S(Name=name), Spec=S(Devices=S(Requests=list(requests), Constraints=constraints)))


def request(name, klass_, count, *selectors):
    return S(Name=name, Exactly=S(Count=count, AllocationMode="ExactCount", DeviceClassName=klass_,
                                  Selectors=list(selectors) or None))


def all_device_request(name, klass_):
    return S(Name=name, Exactly=S(AllocationMode="All", DeviceClassName=klass_))


def sub_request(name, klass_, count, *fields):
    s = S(Name=name, Count=count, AllocationMode="ExactCount", DeviceClassName=klass_)
    for f in fields:
        if "CEL" in f:
            s.setdefault("Selectors", []).append(f)
        else:
            s.setdefault("Tolerations", []).append(f)
    return s


def capacity_requests(qty):
    return S(Requests={} if qty is None else {"capacity-0": qty})


def prioritized(name, *subs):
    return S(Name=name, FirstAvailable=list(subs))


def claim_with_request(name, req, klass_, *constraints):
    return claim_with_requests(name, list(constraints) or None, request(req, klass_, 1))


def claim(name):
    return S(ObjectMeta=S(Name=name))


def claim_with_device_config(name, req, klass_, driver, attribute):
    c = claim_with_request(name, req, klass_)
    c["Spec"]["Devices"]["Config"] = [device_configuration(driver, attribute)]
    return c


def device_claim_config(requests, cfg):
    out = S(Requests=requests)
    out.update(cfg)
    return out


class Dev(S):
    pass


def device(name, capacity, attributes):
    d = Dev(Name=name, Attributes=attributes)
    d.from_counters = False
    if isinstance(capacity, dict):
        d["Capacity"] = {k: S(Value=v) for k, v in capacity.items()}
    elif capacity == "fromCounters":
        d.from_counters = True
    return d


def dev_copy(d):
    out = Dev(dc(dict(d)))
    out.from_counters = getattr(d, "from_counters", False)
    return out


def device_counter_consumption(counter_set, counters):
    return S(CounterSet=counter_set, Counters={k: S(Value=v) for k, v in (counters or {}).items()})


def slice_(name, node_selection, pool, driver):
    if isinstance(pool, str):
        pool = S(Name=pool, ResourceSliceCount=1, Generation=1)
    s = S(ObjectMeta=S(Name=name), Spec=S(Driver=driver, Pool=dc(pool)))
    if isinstance(node_selection, dict):
        s["Spec"]["NodeSelector"] = node_selection
    elif node_selection == "nodeSelectionAll":
        s["Spec"]["AllNodes"] = True
    elif node_selection == "nodeSelectionPerDevice":
        s["Spec"]["PerDeviceNodeSelection"] = True
    else:
        s["Spec"]["NodeName"] = node_selection
    return s


def slice_with_devices(name, node_selection, pool, driver, *devices):
    s = slice_(name, node_selection, pool, driver)
    if devices:
        s["Spec"]["Devices"] = [S(dc(dict(d))) for d in devices]
    return s


def slice_with_counter_sets(name, node_selection, pool, driver, *sets):
    s = slice_(name, node_selection, pool, driver)
    s["Spec"]["SharedCounters"] = list(sets)
    return s


def resource_pool(name, count):
    return S(Name=name, ResourceSliceCount=count, Generation=1)


def device_allocation_result(req, driver, pool, device_, admin, *tolerations):
    r = S(Request=req, Driver=driver, Pool=pool, Device=device_)
    if tolerations:
        r["Tolerations"] = list(tolerations)
    if admin:
        r["AdminAccess"] = True
    return r


def result_with_binding(req, driver, pool, device_, conds, failure, *tolerations):
    r = S(Request=req, Driver=driver, Pool=pool, Device=device_, BindingConditions=conds,
          BindingFailureConditions=failure)
    if tolerations:
        r["Tolerations"] = list(tolerations)
    return r


def multiple_results(req, driver, pool, count, start):
    return [device_allocation_result(req, driver, pool, "device-%d" % i, False) for i in range(start, start + count)]


def node_label_selector(key, *values):
    return S(NodeSelectorTerms=[S(MatchExpressions=[S(Key=key, Operator="In", Values=list(values))])])


def local_node_selector(name):
    return S(NodeSelectorTerms=[S(MatchFields=[S(Key="metadata.name", Operator="In", Values=[name])])])


def allocation_result(selector, *results):
    return S(Devices=S(Results=list(results)), NodeSelector=selector)


def allocation_result_with_config(selector, driver, source, attribute, *results):
    cfg = S(Source=source)
    cfg.update(device_configuration(driver, attribute))
    return S(Devices=S(Results=list(results), Config=[cfg]), NodeSelector=selector)


def allocation_result_with_configs(selector, results, configs):
    return S(Devices=S(Results=results, Config=configs), NodeSelector=selector)


def slice_multi(name, node_selection, pool, driver, count):
    return slice_with_devices(name, node_selection, pool, driver,
                              *[device("device-%d" % i, None, None) for i in range(count)])


def counter_set(name, counters):
    return S(Name=name, Counters={k: S(Value=v) for k, v in (counters or {}).items()})


def must_parse(s):
    return s


def new_quantity(n, _fmt):
    return str(n)


def contain_substring(s):
    return ("contains", s)


def match_error(m):
    return ("error", m)


FUNCS = {
    "node": node, "class": klass, "classWithAllowMultipleAllocations": class_multi,
    "deviceConfiguration": device_configuration, "classWithConfig": class_with_config,
    "claimWithRequests": claim_with_requests, "request": request,
    "deviceRequest": lambda n, c, k: request(n, c, k), "allDeviceRequest": all_device_request,
    "subRequest": sub_request, "requestWithPrioritizedList": prioritized,
    "claimWithRequest": claim_with_request, "claim": claim, "claimWithDeviceConfig": claim_with_device_config,
    "deviceClaimConfig": device_claim_config, "device": device,
    "deviceCounterConsumption": device_counter_consumption, "slice": slice_,
    "sliceWithDevices": slice_with_devices, "sliceWithCounterSets": slice_with_counter_sets,
    "resourcePool": resource_pool, "deviceAllocationResult": device_allocation_result,
    "deviceRequestAllocationResult": lambda r, d, p, v: S(Request=r, Driver=d, Pool=p, Device=v),
    "capacityRequests": capacity_requests,
    "multipleDeviceAllocationResults": multiple_results, "nodeLabelSelector": node_label_selector,
    "localNodeSelector": local_node_selector, "allocationResult": allocation_result,
    "allocationResultWithConfig": allocation_result_with_config,
    "allocationResultWithConfigs": allocation_result_with_configs,
    "objects": lambda *o: list(o), "unwrap": lambda *o: list(o), "unwrapResourceSlices": lambda *o: list(o),
    "sliceWithNoDevices": lambda n, s, p, d: slice_with_devices(n, s, p, d),
    "sliceWithOneDevice": lambda n, s, p, d: slice_with_devices(n, s, p, d, device("device-1", None, None)),
    "sliceWithMultipleDevices": slice_multi, "counterSet": counter_set,
    "deviceRequestAllocationResultWithBindingConditions": result_with_binding,
    "MakeDeviceID": lambda d, p, v: "%s/%s/%s" % (d, p, v),
    "internal.MakeSharedDeviceID": lambda *a: ("shared", a),
    "resource.MustParse": must_parse, "resource.NewQuantity": new_quantity,
    "ptr.To": lambda v: v, "fmt.Sprintf": sprintf, "int64": lambda v: v, "int": lambda v: v,
    "string": lambda v: v, "resourceapi.DeviceAllocationMode": lambda v: v,
    "resourceapi.QualifiedName": lambda v: v, "resourceapi.FullyQualifiedName": lambda v: v,
    "apitypes.UID": lambda v: v,
    "gomega.MatchError": match_error, "gomega.ContainSubstring": contain_substring,
    "sets.New": lambda *a: list(a), "slices.Concat": lambda *a: [x for l in a for x in l],
}


def method(recv, name, args):
    if name == "obj":
        return recv
    if name == "DeepCopy":
        return dev_copy(recv) if isinstance(recv, Dev) else dc(recv)
    out = dev_copy(recv) if isinstance(recv, Dev) else dc(recv)
    if name == "withCapacityRequest":
        target = out["Exactly"] if "Exactly" in out else out
        target["Capacity"] = capacity_requests(args[0])
        return out
    if name == "withSelectors":
        out["Exactly"]["Selectors"] = list(args)
        return out
    if name == "withAllocationMode":
        out["AllocationMode"] = args[0]
        return out
    if name == "withTolerations":
        for r in out["Spec"]["Devices"]["Requests"]:
            r["Exactly"].setdefault("Tolerations", []).extend(args)
        return out
    if name == "withRequests":
        out.setdefault("Spec", S()).setdefault("Devices", S())["Requests"] = list(args)
        return out
    if name == "withConstraints":
        out.setdefault("Spec", S()).setdefault("Devices", S())["Constraints"] = list(args)
        return out
    if name == "withConfigs":
        out.setdefault("Spec", S()).setdefault("Devices", S())["Config"] = args[0]
        return out
    if name == "withTaints":
        out.setdefault("Taints", []).extend(args)
        out.from_counters = False
        return out
    if name == "withDeviceCounterConsumption":
        out.setdefault("ConsumesCounters", []).extend(args)
        if getattr(recv, "from_counters", False):
            cap = {}
            for c in out["ConsumesCounters"]:
                for n, v in c["Counters"].items():
                    cap[n] = S(Value=v["Value"])
            out["Capacity"] = cap
        out.from_counters = False
        return out
    if name == "withNodeSelection":
        sel = args[0]
        if isinstance(sel, dict):
            out["NodeSelector"] = sel
        elif sel == "nodeSelectionAll":
            out["AllNodes"] = True
        else:
            out["NodeName"] = sel
        out.from_counters = False
        return out
    if name == "withBindingConditions":
        out["BindingConditions"], out["BindingFailureConditions"] = args
        out.from_counters = False
        return out
    if name == "withBindsToNode":
        out["BindsToNode"] = args[0]
        return out
    if name == "withAllowMultipleAllocations":
        out["AllowMultipleAllocations"] = True
        return out
    if name == "withCapacityRequestPolicyRange":
        caps = out.setdefault("Capacity", {})
        for n, v in args[0].items():
            caps[n] = S(Value=v, RequestPolicy=S(Default="2", ValidRange=S(Min="2", Step="2", Max="4")))
        return out
    if name == "withCapacityRequestPolicyValidValues":
        caps = out.setdefault("Capacity", {})
        for n, v in args[1].items():
            caps[n] = S(Value=v, RequestPolicy=S(Default=args[0], ValidValues=[args[0]] + list(args[2] or [])))
        return out
    if name == "withConsumedCapacity":
        out["ShareID"] = args[0]
        out["ConsumedCapacity"] = args[1]
        return out
    raise Unsupported("method " + name)


# ---------------------------------------------------------------- to JSON
SPECIAL = {"ObjectMeta": "metadata", "CEL": "cel", "IntValue": "int", "BoolValue": "bool",
           "StringValue": "string", "VersionValue": "version", "IntValues": "ints", "BoolValues": "bools",
           "StringValues": "strings", "VersionValues": "versions", "ShareID": "shareID"}


def to_json(v):
    if isinstance(v, S):
        out = {}
        for k, x in v.items():
            if x is None or (isinstance(x, S) and not x and k != "Raw"):
                continue
            if k == "DeviceConfiguration":
                out.update(to_json(x))
                continue
            if k == "Parameters" and isinstance(x, dict) and "Raw" in x:
                out["parameters"] = x["Raw"]
                continue
            out[SPECIAL.get(k, k[0].lower() + k[1:])] = to_json(x)
        return out
    if isinstance(v, dict):
        return {k: to_json(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [to_json(x) for x in v]
    return v


def main():
    src = open(sys.argv[1]).read()
    toks = cc.tokens(src)
    # Go's automatic semicolons: a newline after these tokens ends a statement
    out_toks = []
    lines = []
    pos = 0
    # re-tokenize keeping newlines for semicolon insertion
    toks = []
    last_end = -1
    for m in re.finditer(cc.TOKEN.pattern, src, re.VERBOSE | re.DOTALL):
        kind = m.lastgroup
        text = m.group(kind)
        if kind == "ws":
            last_end = -1
            if "\n" in text and toks and (toks[-1][0] in ("ident", "str", "num", "rune") or toks[-1][1] in (")", "]", "}", "++", "--")) and toks[-1][1] not in ("func",):
                if toks[-1][1] not in ("return",) or True:
                    toks.append(("op", ";"))
            continue
        if kind == "comment":
            if "\n" in text and toks and (toks[-1][0] in ("ident", "str", "num") or toks[-1][1] in (")", "]", "}")):
                toks.append(("op", ";"))
            continue
        if kind == "raw":
            kind = "str"
        if text in ("+", "-") and toks and toks[-1][1] == text and m.start() == last_end:
            toks[-1] = ("op", text * 2)
            last_end = m.end()
            continue
        last_end = m.end()
        toks.append((kind, text))
    # find "func TestAllocator("
    start = next(i for i in range(len(toks)) if toks[i][1] == "TestAllocator" and toks[i - 1][1] == "func")
    p = P(toks)
    p.i = start + 1
    p.params()
    p.result_type() if toks[p.i][1] != "{" else None
    p.expect("{")
    env = Env()
    for m in re.finditer(r'^\t(\w+)\s*=\s*"([^"]*)"$', src, re.M):
        env.set(m.group(1), m.group(2), True)
    for n, v in (("zero", "0"), ("one", "1"), ("two", "2"), ("three", "3"), ("four", "4"),
                 ("fixedShareID", "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa")):
        env.set(n, v, True)
    cases = []
    problems = {}
    while True:
        p.skip_semis()
        save = p.i
        s = p.stmt()
        if s[0] == "assign" and s[2][0] == ("ident", "testcases"):
            table = s[3][0]
            break
        run_stmt(s, env)
    for key, val in table[2]:
        name = key[1]
        try:
            fields = {}
            for fk, fv in val[2]:
                if fk[1].startswith("expectNumAllocateOne"):
                    continue
                fields[fk[1]] = composite(fv, env) if fv[0] == "composite" and fv[1] is None else ev(fv, env)
            cases.append((name, fields))
        except (Unsupported, KeyError, TypeError, AttributeError, IndexError) as e:
            problems[name] = "%s: %s" % (type(e).__name__, e)
    result = []
    for name, f in cases:
        feats = f.get("features")
        feats = feats[1] if isinstance(feats, tuple) else {}
        err = f.get("expectError")
        c = {"upstreamCase": name, "features": sorted(k for k, v in feats.items() if v)}
        inp = {}
        for fk, jk in (("claimsToAllocate", "claims"), ("classes", "classes"), ("slices", "slices"),
                       ("node", "node"), ("allocatedDevices", "allocatedDevices")):
            if f.get(fk) is not None:
                inp[jk] = to_json(f[fk])
        if "node" not in inp:
            inp["node"] = to_json(node("node-1", "region-1"))
        for fk in ("allocatedSharedDeviceIDs", "allocatedCapacityDevices"):
            if f.get(fk):
                inp[fk] = to_json(f[fk]) if not isinstance(f[fk], tuple) else str(f[fk])
        exp = {}
        if err is not None:
            if not (isinstance(err, tuple) and err[0] == "error" and err[1][0] == "contains"):
                problems[name] = "expectError %r" % (err,)
                continue
            exp["errorContains"] = err[1][1]
        res = f.get("expectResults")
        exp["results"] = to_json(res) if res else []
        c["input"] = inp
        c["expected"] = exp
        result.append(c)
    json.dump({"cases": result, "problems": problems}, sys.stdout, indent=1, default=str)


main()
