/**
 * The subject organizations of a PEM certificate request (upstream `certificates.ParseCSR` and the
 * `Subject.Organization` Go's x509 fills from it), for CertificateSubjectRestriction. PEM follows
 * Go's `pem.Decode` (lib/apis/certificates/v1/pem.ts); the PKCS#10 DER is read with node-forge's
 * strict ASN.1 reader. Errors are worded as Go's.
 */
import forge from 'node-forge';
import { decodePem } from '../../../apis/certificates/v1/pem.js';

type Asn1 = forge.asn1.Asn1;
/** `asn1.fromDer` with its options object (the typings know only the boolean form). */
const fromDer = forge.asn1.fromDer as unknown as (bytes: string, options: { strict: boolean; parseAllBytes: boolean; decodeBitStrings: boolean }) => Asn1;

/** The OID of the organization attribute (`O`). */
const ORGANIZATION_OID = '2.5.4.10';
const { Type } = forge.asn1;
const TAGS_DONT_MATCH = "asn1: structure error: tags don't match";
/** Universal tags the typings lack. */
const NUMERIC_STRING = 18;
const T61_STRING = 20;
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?*&]*$/;

const isUniversal = (n: Asn1 | undefined, type: number): boolean => n !== undefined && n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === type;
const children = (n: Asn1 | undefined, type: number): Asn1[] => {
  if (!isUniversal(n, type) || !Array.isArray(n!.value)) throw new Error(TAGS_DONT_MATCH);
  return n!.value as Asn1[];
};

/** The text of a directory string value (Go's asn1 string types), or undefined when not a string. */
function directoryString(value: Asn1): string | undefined {
  if (value.tagClass !== forge.asn1.Class.UNIVERSAL || typeof value.value !== 'string') return undefined;
  const bytes = Buffer.from(value.value, 'binary');
  switch (value.type as number) {
    case Type.UTF8: {
      const text = bytes.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(bytes)) throw new Error('asn1: syntax error: invalid UTF-8 string');
      return text;
    }
    case Type.PRINTABLESTRING:
      if (!PRINTABLE.test(value.value)) throw new Error('asn1: syntax error: PrintableString contains invalid character');
      return value.value;
    case Type.IA5STRING:
      if (![...bytes].every((b) => b < 0x80)) throw new Error('asn1: syntax error: IA5String contains invalid character');
      return value.value;
    case T61_STRING:
    case NUMERIC_STRING:
      return value.value;
    case Type.BMPSTRING:
      if (bytes.length % 2 !== 0) throw new Error('invalid BMPString');
      return Buffer.from(bytes).swap16().toString('utf16le');
    default:
      return undefined;
  }
}

/**
 * The organizations (`O=` values, in order) of the subject of the first PEM block of `pem`.
 * @throws Error `PEM block type must be CERTIFICATE REQUEST` when that block is missing or of
 * another type; an `asn1: …` error when the request does not parse.
 */
export function requestOrganizations(pem: Buffer): string[] {
  const first = decodePem(pem.toString('binary'));
  if (!first || first.block.type !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  let root: Asn1;
  try {
    root = fromDer(first.block.bytes.toString('binary'), { strict: true, parseAllBytes: true, decodeBitStrings: false });
  } catch (err) {
    const text = String((err as Error).message);
    throw new Error(/too few bytes/i.test(text) ? 'asn1: syntax error: data truncated' : /unparsed/i.test(text) ? 'asn1: syntax error: trailing data' : `asn1: structure error: ${text}`, {
      cause: err,
    });
  }
  const info = children(root, Type.SEQUENCE)[0];
  const subject = children(info, Type.SEQUENCE)[1];
  const out: string[] = [];
  for (const rdn of children(subject, Type.SEQUENCE)) {
    for (const atv of children(rdn, Type.SET)) {
      const [type, value] = children(atv, Type.SEQUENCE);
      if (!isUniversal(type, Type.OID) || typeof type!.value !== 'string' || value === undefined) throw new Error(TAGS_DONT_MATCH);
      if (forge.asn1.derToOid(type!.value) !== ORGANIZATION_OID) continue;
      const text = directoryString(value);
      if (text !== undefined) out.push(text);
    }
  }
  return out;
}
