output "c0" {
  value = 1+2*3
}
output "c1" {
  value = (1+2)*3
}
output "c2" {
  value = 10-2-3
}
output "c3" {
  value = 100/10/5
}
output "c4" {
  value = 2*3%4
}
output "c5" {
  value = 1+2<4
}
output "c6" {
  value = 1<2==true
}
output "c7" {
  value = !true
}
output "c8" {
  value = !false
}
output "c9" {
  value = !!true
}
output "c10" {
  value = true&&false
}
output "c11" {
  value = true||false
}
output "c12" {
  value = false||false&&true
}
output "c13" {
  value = true||false&&false
}
output "c14" {
  value = 1==1
}
output "c15" {
  value = 1!=1
}
output "c16" {
  value = "a"=="a"
}
output "c17" {
  value = "a"!="b"
}
output "c18" {
  value = 1=="1"
}
output "c19" {
  value = [1]==[1]
}
output "c20" {
  value = {a=1}=={a=1}
}
output "c21" {
  value = [1,2]==[1,2]
}
output "c22" {
  value = null==null
}
output "c23" {
  value = 1==null
}
output "c24" {
  value = 1<2
}
output "c25" {
  value = 2<=2
}
output "c26" {
  value = 3>2
}
output "c27" {
  value = 2>=3
}
output "c28" {
  value = "1"+2
}
output "c29" {
  value = "10"/"4"
}
output "c30" {
  value = true+1
}
output "c31" {
  value = "a"+1
}
output "c32" {
  value = -"1"
}
output "c33" {
  value = !"true"
}
output "c34" {
  value = !1
}
output "c35" {
  value = 1 < "2"
}
output "c36" {
  value = null+1
}
output "c37" {
  value = 1 && true
}
output "c38" {
  value = "true"&&true
}
output "c39" {
  value = -[1]
}
output "c40" {
  value = 1 + 2 == 3 && 4 > 3
}
output "c41" {
  value = 1 > 2 ? 10 : 20
}
output "c42" {
  value = true ? 1 + 1 : 3
}
output "c43" {
  value = !(1 > 2)
}
output "c44" {
  value = -(1+2)
}
output "c45" {
  value = 2-1-1
}
output "c46" {
  value = 5 % 3 * 2
}
output "c47" {
  value = {a=1}!={a=2}
}
output "c48" {
  value = [1,"a"]==[1,"a"]
}
output "c49" {
  value = 0.1+0.2==0.3
}
output "c50" {
  value = 1/3==0.3333333333333333
}
