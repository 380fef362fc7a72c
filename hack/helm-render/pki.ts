/**
 * The PKI the chart (manifests/orch-apiserver) mounts from its two Secrets, generated with the
 * server's own certificate code (lib/server/pki): one CA for the API server (client CA and
 * issuer of the serving and admin certificates), one for etcd (server, peer and the API
 * server's etcd client certificate), and the service-account signing key pair.
 */
import { createPublicKey } from 'node:crypto';
import { ADMIN_USER, SERVER_NAME } from '../../lib/apis/vendor.js';
import { MASTERS_GROUP } from '../../lib/request/user.js';
import { createCaCertificate, createSignedCertificate, type CertificateAuthority, type LeafSpec } from '../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../lib/server/pki/keys.js';
import { CA_VALID_DAYS, LEAF_VALID_DAYS } from '../../lib/server/pki/serving-pki.js';

/** Where the chart is installed: the names its objects get. */
export interface ChartPKIRequest {
  /** The release name. */
  release: string;
  namespace: string;
  /** The chart's fullnameOverride, if set. */
  fullname?: string;
  /** The chart's clusterDomain value (default cluster.local). */
  clusterDomain?: string;
  /** Extra DNS names or IPs of the API server (a LoadBalancer's address). */
  extraNames?: string[];
}

/** The two Secrets' files (key → PEM) and the admin credentials that are kept out of them. */
export interface ChartPKI {
  /** Keys of the API server Secret: ca.crt, apiserver.crt/.key, sa.key, sa.pub. */
  apiserver: Record<string, string>;
  /** Keys of the etcd Secret: ca.crt, server/peer/apiserver-etcd-client .crt/.key. */
  etcd: Record<string, string>;
  /** The CA keys and the admin client certificate (system:masters): keep these private. */
  admin: { caCrt: string; caKey: string; etcdCaKey: string; adminCrt: string; adminKey: string };
  /** The object names the certificates were made for. */
  names: { fullname: string; etcd: string; etcdPeer: string };
}

/** The chart's fullname for a release (templates/_helpers.tpl "apiserver.fullname"). */
export function chartFullname(release: string, override?: string): string {
  const cut = (s: string): string => s.slice(0, 63).replace(/-+$/, '');
  if (override) return cut(override);
  return cut(release.includes(SERVER_NAME) ? release : `${release}-${SERVER_NAME}`);
}

/**
 * Generates the chart's PKI for a release (RSA 2048, SHA-256; CAs for 10 years, leaves 1 year).
 * The serving certificate names the Service in every DNS form, localhost and 127.0.0.1 (for
 * `kubectl port-forward`); etcd's server and peer certificates name every member under the
 * peer Service (`*.<peer>.<ns>.svc…`) and the client Service.
 */
export async function generateChartPKI(req: ChartPKIRequest): Promise<ChartPKI> {
  const fullname = chartFullname(req.release, req.fullname);
  const etcd = `${fullname}-etcd`.slice(0, 58).replace(/-+$/, '');
  const etcdPeer = `${etcd}-peer`;
  const domain = req.clusterDomain ?? 'cluster.local';
  const forms = (name: string): string[] => [name, `${name}.${req.namespace}`, `${name}.${req.namespace}.svc`, `${name}.${req.namespace}.svc.${domain}`];
  const extra = req.extraNames ?? [];
  const isIp = (s: string): boolean => /^[\d.]+$|:/.test(s);

  const [caKey, etcdCaKey, servingKey, adminKey, saKey, serverKey, peerKey, clientKey] = await Promise.all(Array.from({ length: 8 }, generateRsaKey));
  const ca: CertificateAuthority = { certPem: createCaCertificate(caKey, `${SERVER_NAME}-ca`, CA_VALID_DAYS), key: caKey };
  const etcdCa: CertificateAuthority = { certPem: createCaCertificate(etcdCaKey, `${SERVER_NAME}-etcd-ca`, CA_VALID_DAYS), key: etcdCaKey };
  const leaf = (issuer: CertificateAuthority, spec: Omit<LeafSpec, 'validDays'>): string => createSignedCertificate(issuer, { ...spec, validDays: LEAF_VALID_DAYS });

  const etcdNames = ['localhost', ...forms(etcd), `*.${etcdPeer}.${req.namespace}.svc`, `*.${etcdPeer}.${req.namespace}.svc.${domain}`];
  return {
    apiserver: {
      'ca.crt': ca.certPem,
      'apiserver.crt': leaf(ca, {
        key: servingKey, commonName: SERVER_NAME, usage: 'server',
        dnsNames: ['localhost', ...forms(fullname), ...extra.filter((n) => !isIp(n))], ips: ['127.0.0.1', ...extra.filter(isIp)],
      }),
      'apiserver.key': servingKey.privateKeyPem,
      'sa.key': saKey.privateKeyPem,
      'sa.pub': createPublicKey(saKey.privateKeyPem).export({ type: 'spki', format: 'pem' }).toString(),
    },
    etcd: {
      'ca.crt': etcdCa.certPem,
      'server.crt': leaf(etcdCa, { key: serverKey, commonName: etcd, usage: 'server', dnsNames: etcdNames, ips: ['127.0.0.1'] }),
      'server.key': serverKey.privateKeyPem,
      'peer.crt': leaf(etcdCa, { key: peerKey, commonName: etcdPeer, usage: 'peer', dnsNames: etcdNames, ips: ['127.0.0.1'] }),
      'peer.key': peerKey.privateKeyPem,
      'apiserver-etcd-client.crt': leaf(etcdCa, { key: clientKey, commonName: `${SERVER_NAME}-etcd-client`, usage: 'client' }),
      'apiserver-etcd-client.key': clientKey.privateKeyPem,
    },
    admin: {
      caCrt: ca.certPem,
      caKey: caKey.privateKeyPem,
      etcdCaKey: etcdCaKey.privateKeyPem,
      adminCrt: leaf(ca, { key: adminKey, commonName: ADMIN_USER, organizations: [MASTERS_GROUP], usage: 'client' }),
      adminKey: adminKey.privateKeyPem,
    },
    names: { fullname, etcd, etcdPeer },
  };
}
