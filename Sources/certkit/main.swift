print("certkit")
