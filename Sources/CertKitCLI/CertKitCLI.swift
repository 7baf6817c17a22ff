public enum CertKitCLI {}
