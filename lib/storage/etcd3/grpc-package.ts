/**
 * etcd's gRPC package definition, built from a JSON descriptor written at build time instead of
 * `@grpc/proto-loader` parsing etcd's `.proto` files at every start (issue #22 § Ready in under a
 * second). The bundle (hack/bundle.sh) aliases `@grpc/proto-loader` to this module, whose
 * {@link loadSync} is the one function of it that the `etcd3` package calls. proto-loader spends
 * ~70 ms of a start parsing the files and encoding a reflection descriptor of every message,
 * which grpc-js uses only for server reflection; this builds only the services' methods, with the
 * same serializers (`fromObject` then `encode`) and deserializers (`decode` then `toObject` with
 * the caller's options). Unbundled runs (tests, `npx tsx`) load proto-loader itself;
 * test/unit/storage/etcd3/grpc-package.test.ts checks that both give the same wire bytes and objects.
 */
import { readFileSync } from 'node:fs';
// protobufjs 7.x, the major proto-loader itself uses (package.json names it `protobufjs-7`; ours
// is 8.x), so that the bytes and objects are proto-loader's exactly: 8.x drops a repeated enum's
// zero values (a watch's `filters: ['NOPUT']`) and writes explicit zero scalars differently.
import protobuf from 'protobufjs-7';

/** What the decoders make of a 64-bit field before `toObject` writes it (long.js's Long). */
interface Long64 {
  low: number;
  high: number;
  unsigned: boolean;
  toString(radix?: number): string;
}

/**
 * The Long of the decoders (protobufjs-7's `util.Long`, which only this module's etcd services
 * use): etcd3 asks for 64-bit fields as decimal strings (`longs: String`: revisions, versions,
 * counts, lease and member IDs), which long.js writes with a loop of 64-bit divisions and
 * multiplications, each a new Long (1% of a delete's CPU). A value within ±(2^53 − 1) is written
 * from its double instead, any other through a BigInt: the same digits. Another radix is long.js's.
 */
const BaseLong = protobuf.util.Long as unknown as new (low: number, high: number, unsigned?: boolean) => Long64;
class DecimalLong extends BaseLong {
  override toString(radix?: number): string {
    if (radix !== undefined && radix !== 10) return super.toString(radix);
    const n = (this.unsigned ? this.high >>> 0 : this.high) * 4294967296 + (this.low >>> 0);
    if (Number.isSafeInteger(n)) return String(n);
    const bits = (BigInt(this.high >>> 0) << 32n) | BigInt(this.low >>> 0);
    return (this.unsigned ? bits : BigInt.asIntN(64, bits)).toString();
  }
}
protobuf.util.Long = DecimalLong as unknown as typeof protobuf.util.Long;

/** The file the bundle holds beside each `.proto` file etcd3 names: its protobufjs JSON descriptor. */
export const DESCRIPTOR_SUFFIX = '.json';

/** One gRPC method as grpc-js's `makeClientConstructor` reads it (proto-loader's MethodDefinition without the reflection fields). */
export interface MethodDefinition {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestSerialize: (value: object) => Buffer;
  requestDeserialize: (bytes: Buffer) => object;
  responseSerialize: (value: object) => Buffer;
  responseDeserialize: (bytes: Buffer) => object;
  originalName: string;
}

/** Services by fully qualified name (`etcdserverpb.KV`), each its methods by name. */
export type PackageDefinition = Record<string, Record<string, MethodDefinition>>;

/**
 * The JSON descriptor of `protoFile` and the files it imports, field names as written in them
 * (proto-loader's `keepCase`), as the build writes it beside the file.
 * @throws Error when a file cannot be read or parsed.
 */
export function descriptorJSON(protoFile: string): protobuf.INamespace {
  const root = new protobuf.Root();
  root.loadSync(protoFile, { keepCase: true });
  return root.toJSON();
}

/**
 * proto-loader's `loadSync(filename, options)` for a file whose JSON descriptor is at
 * `filename + DESCRIPTOR_SUFFIX`: every service's methods; `options` are the conversion options
 * of the deserializers (`longs`, `enums`, `defaults`, `oneofs`; `keepCase` is the descriptor's).
 * @throws Error when the descriptor is missing or malformed, or a method's type is unresolved.
 */
export function loadSync(filename: string, options: protobuf.IConversionOptions = {}): PackageDefinition {
  return packageDefinition(JSON.parse(readFileSync(filename + DESCRIPTOR_SUFFIX, 'utf8')) as protobuf.INamespace, options);
}

/** The services of a JSON descriptor (see {@link loadSync}). */
export function packageDefinition(json: protobuf.INamespace, options: protobuf.IConversionOptions): PackageDefinition {
  // fromJSON resolves every type, which also settles each field's encoding features (proto3's
  // packed repeated fields): resolving lazily instead wrote a watch's `filters` unpacked.
  const root = protobuf.Root.fromJSON(json);
  const def: PackageDefinition = {};
  const visit = (ns: protobuf.NamespaceBase, prefix: string): void => {
    for (const obj of ns.nestedArray) {
      const name = prefix ? `${prefix}.${obj.name}` : obj.name;
      if (obj instanceof protobuf.Service) def[name] = serviceDefinition(obj, name, options);
      else if (obj instanceof protobuf.Namespace) visit(obj, name);
    }
  };
  visit(root, '');
  return def;
}

function serviceDefinition(service: protobuf.Service, name: string, options: protobuf.IConversionOptions): Record<string, MethodDefinition> {
  const methods: Record<string, MethodDefinition> = {};
  for (const m of service.methodsArray) {
    const req = m.resolvedRequestType!;
    const res = m.resolvedResponseType!;
    methods[m.name] = {
      path: `/${name}/${m.name}`,
      requestStream: !!m.requestStream,
      responseStream: !!m.responseStream,
      requestSerialize: serializer(req),
      requestDeserialize: deserializer(req, options),
      responseSerialize: serializer(res),
      responseDeserialize: deserializer(res, options),
      originalName: lowerCamelCase(m.name),
    };
  }
  return methods;
}

/** lodash's camelCase of a method name, as proto-loader gives `originalName`: `HashKV` → `hashKv`, `LeaseTimeToLive` → `leaseTimeToLive`. */
function lowerCamelCase(name: string): string {
  const words = name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [];
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())).join('');
}

function serializer(type: protobuf.Type): (value: object) => Buffer {
  return (value) => {
    if (Array.isArray(value)) throw new Error(`Failed to serialize message: expected object with ${type.name} structure, got array instead`);
    return type.encode(type.fromObject(value)).finish() as Buffer; // a Buffer under Node (protobufjs's BufferWriter)
  };
}

function deserializer(type: protobuf.Type, options: protobuf.IConversionOptions): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), options);
}
