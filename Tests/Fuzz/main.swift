// Built with -DFUZZING by Scripts/fuzz.sh\n
