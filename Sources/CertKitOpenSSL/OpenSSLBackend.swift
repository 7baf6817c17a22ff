import CertKit
