/**
 * The two X.509 checks of CertificateSigningRequest validation (upstream certificates validation
 * of v1.30): the request is a PEM `CERTIFICATE REQUEST` whose PKCS#10 structure parses (node-forge's
 * DER reader) and whose signature verifies with its own public key (Node's crypto: RSA PKCS#1 v1.5
 * and PSS, ECDSA, Ed25519, as Go's `CheckSignature`); the issued certificate is one or more PEM
 * `CERTIFICATE` blocks without headers, each holding DER certificates. Errors are worded as Go's.
 */
import { constants, createPublicKey, verify, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { decodeAllPem, decodePem } from './pem.js';

type Asn1 = forge.asn1.Asn1;
/** `asn1.fromDer` with its options object (the typings know only the boolean form). */
const fromDer = forge.asn1.fromDer as unknown as (bytes: string, options: { strict: boolean; parseAllBytes: boolean; decodeBitStrings: boolean }) => Asn1;

/** Signature algorithms by OID: the digest and the key type they need (as Go's x509 table). */
const SIGNATURE_ALGORITHMS: Record<string, { hash: string | null; key: 'rsa' | 'rsa-pss' | 'ec' | 'ed25519' }> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', key: 'rsa' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', key: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', key: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', key: 'rsa' },
  '1.2.840.113549.1.1.10': { hash: null, key: 'rsa-pss' },
  '1.2.840.10045.4.1': { hash: 'sha1', key: 'ec' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', key: 'ec' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', key: 'ec' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', key: 'ec' },
  '1.3.101.112': { hash: null, key: 'ed25519' },
};
const DIGESTS: Record<string, string> = { '2.16.840.1.101.3.4.2.1': 'sha256', '2.16.840.1.101.3.4.2.2': 'sha384', '2.16.840.1.101.3.4.2.3': 'sha512' };
const DIGEST_LENGTH: Record<string, number> = { sha256: 32, sha384: 48, sha512: 64 };
const FAILURE: Record<string, string> = {
  rsa: 'crypto/rsa: verification error',
  'rsa-pss': 'crypto/rsa: verification error',
  ec: 'x509: ECDSA verification failure',
  ed25519: 'x509: Ed25519 verification failure',
};

/** A certificate request's parts: the signed bytes, the signature algorithm, the signature, the public key. */
interface ParsedRequest {
  signed: Buffer;
  algorithm: Asn1;
  signature: Buffer;
  spki: Buffer;
}

const binary = (s: string) => Buffer.from(s, 'binary');
const isSequence = (n: Asn1 | undefined): n is Asn1 & { value: Asn1[] } =>
  n !== undefined && n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === forge.asn1.Type.SEQUENCE && Array.isArray(n.value);

/** Parses PKCS#10 DER; throws with Go's asn1/x509 wording when it does not parse. */
function parseRequest(der: Buffer): ParsedRequest {
  let root: Asn1;
  try {
    root = fromDer(der.toString('binary'), { strict: true, parseAllBytes: true, decodeBitStrings: false });
  } catch (err) {
    const text = String((err as Error).message);
    const message = /too few bytes/i.test(text) ? 'asn1: syntax error: data truncated' : /unparsed/i.test(text) ? 'asn1: syntax error: trailing data' : `asn1: structure error: ${text}`;
    throw new Error(message, { cause: err });
  }
  if (!isSequence(root) || root.value.length !== 3) throw new Error('asn1: structure error: tags don\'t match');
  const [info, algorithm, sig] = root.value as [Asn1, Asn1, Asn1];
  if (!isSequence(info) || info.value.length < 3 || !isSequence(algorithm) || sig.type !== forge.asn1.Type.BITSTRING || typeof sig.value !== 'string') {
    throw new Error('asn1: structure error: tags don\'t match');
  }
  const spki = info.value[2]!;
  if (!isSequence(spki)) throw new Error('asn1: structure error: tags don\'t match');
  return { signed: binary(forge.asn1.toDer(info).getBytes()), algorithm, signature: binary(sig.value.slice(1)), spki: binary(forge.asn1.toDer(spki).getBytes()) };
}

/** The OID of an AlgorithmIdentifier's first element. */
function oidOf(algorithm: Asn1): string {
  const first = (algorithm.value as Asn1[])[0];
  return first && first.type === forge.asn1.Type.OID ? forge.asn1.derToOid(first.value as string) : '';
}

/** The digest named by RSASSA-PSS parameters (SHA-1 when absent, as RFC 4055). */
function pssDigest(algorithm: Asn1): string | undefined {
  const params = (algorithm.value as Asn1[])[1];
  if (!params || !Array.isArray(params.value)) return undefined;
  const hashField = (params.value as Asn1[]).find((p) => p.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && p.type === 0);
  const hashAlg = hashField && Array.isArray(hashField.value) ? (hashField.value as Asn1[])[0] : undefined;
  return hashAlg ? DIGESTS[oidOf(hashAlg)] : undefined;
}

/** Verifies the request's signature with its own key (Go `CertificateRequest.CheckSignature`). */
function checkSignature(req: ParsedRequest): void {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: req.spki, format: 'der', type: 'spki' });
  } catch {
    throw new Error('x509: unknown public key algorithm');
  }
  const alg = SIGNATURE_ALGORITHMS[oidOf(req.algorithm)];
  if (!alg) throw new Error('x509: cannot verify signature: algorithm unimplemented');
  const keyType = key.asymmetricKeyType === 'rsa-pss' ? 'rsa' : key.asymmetricKeyType;
  if (keyType !== (alg.key === 'rsa-pss' ? 'rsa' : alg.key)) throw new Error(FAILURE[alg.key]!);
  const hash = alg.key === 'rsa-pss' ? pssDigest(req.algorithm) : alg.hash;
  if (alg.key === 'rsa-pss' && !hash) throw new Error('x509: cannot verify signature: algorithm unimplemented');
  const verifyKey = alg.key === 'rsa-pss' ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: DIGEST_LENGTH[hash!] } : key;
  let ok: boolean;
  try {
    ok = verify(hash, req.signed, verifyKey, req.signature);
  } catch {
    ok = false;
  }
  if (!ok) throw new Error(FAILURE[alg.key]!);
}

/**
 * Why `pem` is not an acceptable certificate request (upstream `validateCSR`), or undefined: the
 * first PEM block must be a `CERTIFICATE REQUEST` whose PKCS#10 content parses and is signed by
 * its own key.
 */
export function certificateRequestError(pem: Buffer): string | undefined {
  const first = decodePem(pem.toString('binary'));
  if (!first || first.block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    checkSignature(parseRequest(first.block.bytes));
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The DER elements concatenated in `der` (Go `x509.ParseCertificates`); throws Go's wording when one does not parse. */
function certificatesIn(der: Buffer): X509Certificate[] {
  const out: X509Certificate[] = [];
  let offset = 0;
  while (offset < der.length) {
    const len = derElementLength(der, offset);
    if (len === undefined) throw new Error('x509: malformed certificate');
    try {
      out.push(new X509Certificate(der.subarray(offset, offset + len)));
    } catch {
      throw new Error('x509: malformed certificate');
    }
    offset += len;
  }
  return out;
}

/** The total length (header and content) of the DER element at `offset`, or undefined when malformed. */
function derElementLength(buf: Buffer, offset: number): number | undefined {
  if (offset + 2 > buf.length) return undefined;
  const first = buf[offset + 1]!;
  if (first < 0x80) return offset + 2 + first <= buf.length ? 2 + first : undefined;
  const n = first & 0x7f;
  if (n === 0 || n > 4 || offset + 2 + n > buf.length) return undefined;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + buf[offset + 2 + i]!;
  return offset + 2 + n + len <= buf.length ? 2 + n + len : undefined;
}

/**
 * Why `pem` is not an acceptable issued certificate (upstream `validateCertificate`), or
 * undefined (also for an empty value): at least one PEM block, each a `CERTIFICATE` without
 * headers holding at least one parseable certificate.
 */
export function issuedCertificateError(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = decodeAllPem(pem.toString('binary'));
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (Object.keys(block.headers).length > 0) return 'no PEM block headers are permitted';
    try {
      if (certificatesIn(block.bytes).length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    } catch (err) {
      return (err as Error).message;
    }
  }
  return undefined;
}
