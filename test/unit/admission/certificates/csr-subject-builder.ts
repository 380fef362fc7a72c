/**
 * Test helper: PEM certificate requests with a chosen subject (common name, organizations, and the
 * ASN.1 string type of each value), signed with a new ECDSA P-256 key so that they pass
 * CertificateSigningRequest validation.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import forge from 'node-forge';

const { asn1 } = forge;
const seq = (...items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const oid = (value: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(value).getBytes());

/** One subject attribute: its OID, the universal tag of its string (UTF8String: 12, PrintableString: 19, BMPString: 30…) and its raw bytes. */
export interface SubjectAttribute {
  oid: string;
  tag: number;
  bytes: string;
}

/** An organization attribute (O) as a UTF8String. */
export const organization = (name: string): SubjectAttribute => ({ oid: '2.5.4.10', tag: asn1.Type.UTF8, bytes: forge.util.encodeUtf8(name) });
/** A common name attribute (CN) as a UTF8String. */
export const commonName = (name: string): SubjectAttribute => ({ oid: '2.5.4.3', tag: asn1.Type.UTF8, bytes: forge.util.encodeUtf8(name) });

/** A signed PEM certificate request whose subject has one RDN per attribute, in order. */
export function csrWithSubject(attributes: SubjectAttribute[]): string {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = asn1.fromDer(publicKey.export({ type: 'spki', format: 'der' }).toString('binary'));
  const rdns = attributes.map((a) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, [seq(oid(a.oid), asn1.create(asn1.Class.UNIVERSAL, a.tag, false, a.bytes))]));
  const info = seq(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, '\x00'), seq(...rdns), spki, asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, []));
  const infoDer = Buffer.from(asn1.toDer(info).getBytes(), 'binary');
  const signature = sign('sha256', infoDer, privateKey);
  const bits = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, `\x00${signature.toString('binary')}`);
  const der = asn1.toDer(seq(info, seq(oid('1.2.840.10045.4.3.2')), bits)).getBytes();
  return forge.pem.encode({ type: 'CERTIFICATE REQUEST', body: der });
}
