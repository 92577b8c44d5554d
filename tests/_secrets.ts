/**
 * Planted secrets for the redaction tests: every kind deja must catch, each
 * with a real-looking example (its `core` must never reach the index) and a
 * placeholder or variable reference that must stay as written. Values are
 * assembled from pieces so no real-looking token sits whole in the source;
 * none is a live credential.
 */

/** One planted kind. */
export interface Planted {
  /** What it is (the name for it). */
  name: string;
  /** A line or block as a user would paste or write it. */
  text: string;
  /** The part that is secret: must not appear anywhere in the index. */
  core: string;
  /** A placeholder or reference that looks like it and must survive. */
  keep: string;
}

const B64 = "Zm9vYmFyYmF6cXV4" + "K3N0dWZmL21vcmVzdHVmZg" + "Q2xpZW50U2VjcmV0S2V5" +
  "UGxhbnRlZDEyMzQ1Njc4";
const AZURE_KEY = B64.slice(0, 64) + "aB3dE5fG7hI9jK1lM3nO5pQ7==";
const HEX32 = "9f2b5c8e1f0a9d4c" + "7b6e3f2a1d0c9b8a";
const PEM_BODY = [
  "MIIEowIBAAKCAQEA" + "2a8Qn1X3kP7Lm0Vb9Rt4Wc6Hs2Jd5Fg8Yk1Ze3Nq7Mp0Bv",
  "Xr4Tu6Wy8Aa1Cc3Ee5Gg7Ii9Kk2Mm4Oo6Qq8Ss0Uu2Ww4Yy6" + "Zz8Bb1Dd3Ff5Hh7Jj9Ll2Nn4Pp6",
  "Rr8Tt0Vv2Xx4Zz6Ab8Cd0Ef2Gh4Ij6Kl8Mn0Op2Qr4St6Uv" + "8Wx0Yz2Ab4Cd6Ef8Gh0Ij2Kl4Mn",
];
const PEM_RSA = `-----BEGIN RSA PRIVATE KEY-----\n${
  PEM_BODY.join("\n")
}\n-----END RSA PRIVATE KEY-----`;
const SSH_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB" +
  "AAAAMwAAAAtzc2gtZWQyNTUxOQAAACBq7Vx3Kp9Lm2Wq8Rt5Yb1Nc4Hd6Jf0Zg3Xs7Ea";
const SSH = `-----BEGIN OPENSSH PRIVATE KEY-----\n${SSH_BODY.slice(0, 70)}\n${
  SSH_BODY.slice(70)
}\n-----END OPENSSH PRIVATE KEY-----`;
const GCP_BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + "BKcwggSjAgEAAoIBAQDq7Vx3Kp9Lm2Wq";
const GCP_JSON = `{\n  "type": "service_account",\n  "project_id": "acme-prod",\n` +
  `  "private_key_id": "${HEX32}abcdef01",\n` +
  `  "private_key": "-----BEGIN PRIVATE KEY-----\\n${GCP_BODY}\\n8Rt5Yb1Nc4Hd6Jf0Zg3Xs7Ea\\n-----END PRIVATE KEY-----\\n",\n` +
  `  "client_email": "deploy@acme-prod.iam.gserviceaccount.com"\n}`;
const AWS_SECRET = "q8Jd2Lm5Xr" + "7Tv0Wy3Zb6Nc9" + "Hf1Kp4Sg/Ue+Ai0Ol";
const PYPI = "pypi-AgEIcHlwaS5vcmcC" + "JDhmNjE0ZGFhLTJjYjQtNGQ3Ni1iOWQ0LWE5YzE3ZjE2OTk5MQ" +
  "ACKlszLCJ1c2VyIl0AAAYgk3Xr7Tv0Wy3Zb6Nc9Hf1Kp4Sg";
const SHOP = "shpat_" + HEX32;

/** Every kind of issue 14 item 6, and the shapes deja already caught, planted. */
export const PLANTED: Planted[] = [
  {
    name: "azure storage connection string",
    text:
      `DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${AZURE_KEY};EndpointSuffix=core.windows.net`,
    core: AZURE_KEY.slice(10, 50),
    keep: "AccountKey=<your-account-key>;EndpointSuffix=core.windows.net",
  },
  {
    name: "twilio api key",
    text: `twilio api:core:calls:list --api-key SK${HEX32} --api-secret foo`,
    core: `SK${HEX32}`,
    keep: "TWILIO_API_KEY=SKxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  },
  {
    name: "gcp service account json",
    text: GCP_JSON,
    core: GCP_BODY.slice(8, 40),
    keep: `"private_key": "-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----\\n"`,
  },
  {
    name: "curl -u user:password",
    text: "curl -u deploy:Gr8vy-Tr41n-2026 https://ci.example.com/api/json",
    core: "Gr8vy-Tr41n-2026",
    keep: `curl -u "$CI_USER:$CI_PASSWORD" https://ci.example.com/api/json`,
  },
  {
    name: "shopify access token",
    text: `X-Shopify-Access-Token: ${SHOP}`,
    core: SHOP,
    keep: "X-Shopify-Access-Token: shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  },
  {
    name: "shopify shared secret",
    text: `SHOPIFY_SECRET shpss_${HEX32.split("").reverse().join("")}`,
    core: `shpss_${HEX32.split("").reverse().join("")}`,
    keep: "the app's shpss_ shared secret goes in the vault",
  },
  {
    name: "json password field",
    text: `{"username": "admin", "password": "Hunter2-Corvid"}`,
    core: "Hunter2-Corvid",
    keep: `{"username": "admin", "password": "YOUR_PASSWORD"}`,
  },
  {
    name: ".env file",
    text: [
      "NODE_ENV=production",
      "DATABASE_URL=postgres://app:Pg-Sekr1t-Word@db.internal:5432/app",
      "ADMIN_PASSWORD=correcthorsebattery",
      "SESSION_SECRET=kettle-meadow-lantern",
      "STRIPE_WEBHOOK_KEY=wk9Lm2Xr7Tv0",
      "PORT=8080",
    ].join("\n"),
    core: "correcthorsebattery",
    keep: "ADMIN_PASSWORD=${ADMIN_PASSWORD}\nSESSION_SECRET=changeme\nPORT=8080",
  },
  {
    name: "aws secret access key",
    text: `aws configure set aws_secret_access_key ${AWS_SECRET}`,
    core: AWS_SECRET,
    keep: "$aws_access_key_id = $env.AWS_ACCESS_KEY_ID",
  },
  {
    name: "pypi token",
    text: `twine upload -u __token__ -p ${PYPI} dist/*`,
    core: PYPI.slice(20, 60),
    keep: "password = pypi-<your token here>",
  },
  {
    name: "pem rsa private key",
    text: `id_rsa:\n${PEM_RSA}\n`,
    core: PEM_BODY[1].slice(0, 40),
    keep: `const key = "your-private-key";`,
  },
  {
    name: "openssh private key",
    text: SSH,
    core: SSH_BODY.slice(60, 100),
    keep: `"apiKey": "YOUR_API_KEY"`,
  },
];

/** A random value with no known shape, alone on its line (the entropy rule). */
export const LONE = "Q7mZp3Xk9Lw2" + "Vr8Tn4Ys6Bd1Hc5Jf0Ga";
PLANTED.push({
  name: "random value alone on a line",
  text: `the new signing value is:\n  ${LONE}\nkeep it safe`,
  core: LONE,
  keep: "the signing value is read from SIGNING_VALUE at start",
});

/** Pieces of the .env kind that must all be gone, not only the first. */
export const ENV_CORES = [
  "Pg-Sekr1t-Word",
  "correcthorsebattery",
  "kettle-meadow-lantern",
  "wk9Lm2Xr7Tv0",
];

// --- Issue: multi-word passwords, AWS secret keys beside their id, rarer kinds ----------
const AKID = "AKIA" + "Z7QK4M2WPX" + "5RT3NB";
const AWS_40 = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCY" + "zQ8Lk3mN9p";
const AWS_40B = "Xq3Vt8Lm2Rk" + "+Pz6Wn9Bc4Hd1Jf5Gs7" + "Ya0Ue2Ti4O";
const AWS_40C = "Mn4Bv7Cx1Za" + "9Lk2Jh5Gf8Dd3Ss6Aa0" + "Qw/Er+Ty1U";
const SENTRY_KEY = "3f9a1c7e5b2d4f60" + "8a9b1c2d3e4f5a6b";
const NPM = "npm_" + "Qz8Lm2Xr7Tv0Wy3Zb6Nc" + "9Hf1Kp4Sg5Ue8Ai0Ol3D";
PLANTED.push(
  {
    name: "multi-word json password",
    text: `{"username": "admin", "password": "correct horse battery staple"}`,
    core: "horse battery staple",
    keep: `{"username": "admin", "password": "your password here"}`,
  },
  {
    name: "multi-word quoted env password",
    text: `DB_PASSWORD="violet anchor mellow quarry"`,
    core: "anchor mellow quarry",
    keep: `DB_PASSWORD="\${DB_PASSWORD}"`,
  },
  {
    name: "multi-word yaml password",
    text: "database:\n  user: app\n  password: tidal fennel orbit crane\n  host: db",
    core: "fennel orbit crane",
    keep: "  password: <your password>",
  },
  {
    name: "mysql quoted password flag",
    text: `mysql -u root --password="amber socket willow" shop`,
    core: "socket willow",
    keep: `mysql -u root --password="$MYSQL_PWD" shop`,
  },
  {
    name: "quoted password flag",
    text: `app login --user bob --password "hunter two words"`,
    core: "hunter two words",
    keep: `app login --user bob --password "$APP_PASSWORD"`,
  },
  {
    name: "aws secret key in prose",
    text: `my aws key is ${AKID} and secret ${AWS_40} ok?`,
    core: AWS_40,
    keep: "the key id looks like AKIAXXXXXXXXXXXXXXXX in the docs",
  },
  {
    name: "aws console secret access key",
    text: `Access key ID: ${AKID}\nSecret access key: ${AWS_40B}`,
    core: AWS_40B,
    keep: "Secret access key: shown only once, download the csv",
  },
  {
    name: "aws credentials csv",
    text: `Access key ID,Secret access key\n${AKID},${AWS_40C}\n`,
    core: AWS_40C,
    keep: "AKIAIOSFODNN7EXAMPLE,<secret access key>",
  },
  {
    name: "sentry dsn",
    text: `Sentry.init({ dsn: "https://${SENTRY_KEY}@o123.ingest.sentry.io/456" });`,
    core: SENTRY_KEY,
    keep: `dsn: "https://examplePublicKey@o0.ingest.sentry.io/0"`,
  },
  {
    name: "npm token of 40 characters",
    text: `publish with ${NPM} from the vault`,
    core: NPM,
    keep: "set NPM_TOKEN to an npm_ automation token",
  },
);
