region="us-east-1"
tags={
Name="x"
LongerName = "y"
}
list=[1,2,
3]
